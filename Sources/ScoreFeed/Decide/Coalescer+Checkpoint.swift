import Foundation
import ScoreFeedModel

/// The coalescer in a checkpoint, spelled by hand as its `Codable` (``Coalescer/encode(to:)``)
/// spells it through ``CheckpointEncoder``: keys in the order of their bytes, an optional left
/// out when nil, dates as seconds since 2001. Each lane writes one at every snapshot, and its
/// `Codable` made a keyed container for each of its seven nested types (each one's metadata made
/// the first time in a process). `CheckpointEncoderTests` holds the two to the same bytes.
extension Coalescer {
    func appendCheckpoint(to out: inout JSONBytes) throws(JSONBytes.NonFinite) {
        let unsent = phase.unsent
        out.byte(UInt8(ascii: "{"))
        if let alert = unsent?.alert {
            out.raw("\"alert\":")
            out.string(alert.rawValue, escapingSlashes: true)
            out.byte(UInt8(ascii: ","))
        }
        if let arrival {
            out.raw("\"arrival\":{")
            if let criticalAt = arrival.criticalAt {
                out.raw("\"criticalAt\":")
                try out.double(criticalAt.timeIntervalSinceReferenceDate)
                out.byte(UInt8(ascii: ","))
            }
            out.raw("\"isFirst\":")
            out.bool(arrival.isFirst)
            out.raw(",\"newest\":")
            try out.double(arrival.newest.timeIntervalSinceReferenceDate)
            out.raw("},")
        }
        out.raw("\"beyond\":")
        try beyond.appendCheckpoint(to: &out)
        out.raw(",\"budget\":")
        try budget.appendCheckpoint(to: &out)
        out.raw(",\"budgetSpentAtFirstEvent\":")
        out.bool(phase == .takingOver)
        out.raw(",\"configuration\":")
        try configuration.appendCheckpoint(to: &out)
        out.raw(",\"dirty\":")
        out.bool(unsent != nil)
        // Once ended, the end was pending before: the flags as they were written.
        out.raw(",\"endPending\":")
        out.bool(phase == .ended || phase.isEnding)
        out.raw(",\"ended\":")
        out.bool(phase == .ended)
        if let settleUntil = phase.waits.settleUntil {
            out.raw(",\"holdUntil\":")
            try out.double(settleUntil.timeIntervalSinceReferenceDate)
        }
        if let interval = phase.waits.interval {
            out.raw(",\"intervalWait\":")
            try out.double(interval.timeIntervalSinceReferenceDate)
        }
        if let lastPushAt {
            out.raw(",\"lastPushAt\":")
            try out.double(lastPushAt.timeIntervalSinceReferenceDate)
        }
        out.raw(",\"paced\":")
        try out.double(paced)
        if let pacedAt {
            out.raw(",\"pacedAt\":")
            try out.double(pacedAt.timeIntervalSinceReferenceDate)
        }
        out.raw(",\"recent\":[")
        for (index, push) in recent.enumerated() {
            if index > 0 { out.byte(UInt8(ascii: ",")) }
            out.raw("{\"at\":")
            try out.double(push.at.timeIntervalSinceReferenceDate)
            out.raw(",\"awayScore\":")
            out.int(push.awayScore)
            out.raw(",\"homeScore\":")
            out.int(push.homeScore)
            out.raw(",\"priority\":")
            out.int(push.priority)
            out.byte(UInt8(ascii: "}"))
        }
        out.raw("],\"significance\":")
        out.int((unsent?.significance ?? .none).rawValue)
        out.raw(",\"situation\":")
        try situation.appendCheckpoint(to: &out)
        out.raw(",\"state\":")
        try out.write(state, escapingSlashes: true)
        out.byte(UInt8(ascii: "}"))
    }
}

extension Coalescer.Configuration {
    /// The configuration as its synthesized `Encodable` spells it in a checkpoint.
    func appendCheckpoint(to out: inout JSONBytes) throws(JSONBytes.NonFinite) {
        out.raw("{\"alerts\":{\"final\":")
        out.bool(alerts.final)
        out.raw(",\"lateLeadChange\":")
        out.bool(alerts.lateLeadChange)
        out.raw(",\"overtime\":")
        out.bool(alerts.overtime)
        out.raw("},\"budget\":")
        out.int(budget)
        out.raw(",\"copies\":")
        out.bool(copies)
        out.raw(",\"crunchReserve\":")
        out.int(crunchReserve)
        out.raw(",\"finalReserve\":")
        out.int(finalReserve)
        out.raw(",\"keepUsesShare\":")
        try out.double(keepUsesShare)
        out.raw(",\"largestBudget\":")
        out.int(largestBudget)
        out.raw(",\"mandatoryWindow\":")
        try out.double(mandatoryWindow)
        out.raw(",\"minInterval\":")
        try out.double(minInterval)
        out.raw(",\"minimumGain\":")
        try out.double(minimumGain)
        out.raw(",\"pacedBurst\":")
        try out.double(pacedBurst)
        out.raw(",\"pacedPerHour\":")
        try out.double(pacedPerHour)
        out.raw(",\"periodEndWindow\":")
        try out.double(periodEndWindow)
        out.raw(",\"priority5Delay\":")
        try out.double(priority5Delay)
        out.raw(",\"reserve\":")
        out.int(reserve)
        out.raw(",\"runLength\":")
        out.int(runLength)
        out.raw(",\"settle\":")
        try out.double(settle)
        out.raw(",\"shortestPriority5Delay\":")
        try out.double(shortestPriority5Delay)
        out.raw(",\"spareShare\":")
        try out.double(spareShare)
        if let threshold {
            out.raw(",\"threshold\":")
            try out.double(threshold)
        }
        out.byte(UInt8(ascii: "}"))
    }
}

extension PushBudget {
    /// The budget as its synthesized `Encodable` spells it in a checkpoint.
    func appendCheckpoint(to out: inout JSONBytes) throws(JSONBytes.NonFinite) {
        out.raw("{\"limit\":")
        out.int(limit)
        out.raw(",\"spent\":[")
        for (index, at) in spent.enumerated() {
            if index > 0 { out.byte(UInt8(ascii: ",")) }
            try out.double(at.timeIntervalSinceReferenceDate)
        }
        out.raw("],\"window\":")
        try out.double(window)
        out.byte(UInt8(ascii: "}"))
    }
}
