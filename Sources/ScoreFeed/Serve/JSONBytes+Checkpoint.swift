import Foundation
import ScoreFeedModel

/// The enums of a snapshot whose synthesized `Codable` costs the most to run (a nested container
/// of a type of its own for each case, made the first time in each process), spelled by hand as
/// that `Codable` spells them in a checkpoint: `{"case":{"label":…}}`, `_0` for an unlabelled
/// value, an optional left out when nil, keys in order, `/` escaped, dates as seconds since 2001.
extension JSONBytes {
    /// A ``Diff/Value`` (each change of a record in the outbox).
    mutating func checkpoint(_ value: Diff.Value) throws(NonFinite) {
        switch value {
        case .int(let int):
            raw("{\"int\":{\"_0\":")
            self.int(int)
        case .bool(let bool):
            raw("{\"bool\":{\"_0\":")
            self.bool(bool)
        case .text(let text):
            raw("{\"text\":{\"_0\":")
            string(text, escapingSlashes: true)
        case .clock(let clock):
            raw("{\"clock\":{\"_0\":")
            try write(clock)
        case .null:
            raw("{\"null\":{")
        }
        raw("}}")
    }

    /// A ``BroadcastChannel/Phase``.
    mutating func checkpoint(_ phase: BroadcastChannel.Phase) throws(NonFinite) {
        switch phase {
        case .none:
            raw("{\"none\":{")
        case .creating:
            raw("{\"creating\":{")
        case .open(let id):
            raw("{\"open\":{\"id\":")
            string(id, escapingSlashes: true)
        case .lingering(let id, let until):
            raw("{\"lingering\":{\"id\":")
            string(id, escapingSlashes: true)
            raw(",\"until\":")
            try double(until.timeIntervalSinceReferenceDate)
        case .deleting(let id):
            raw("{\"deleting\":{\"id\":")
            string(id, escapingSlashes: true)
        case .deleted(let id):
            raw("{\"deleted\":{\"id\":")
            string(id, escapingSlashes: true)
        case .refused(let reason, let id):
            raw("{\"refused\":{")
            if let id {
                raw("\"id\":")
                string(id, escapingSlashes: true)
                byte(UInt8(ascii: ","))
            }
            raw("\"reason\":")
            string(reason, escapingSlashes: true)
        }
        raw("}}")
    }

    /// A ``PushRenderer/Mode``.
    mutating func checkpoint(_ mode: PushRenderer.Mode) {
        switch mode {
        case .token:
            raw("{\"token\":{")
        case .broadcast(let channelId):
            raw("{\"broadcast\":{")
            if let channelId {
                raw("\"channelId\":")
                string(channelId, escapingSlashes: true)
            }
        }
        raw("}}")
    }
}
