import Foundation
import Testing
@testable import ScoreFeed

/// The dates a device reads in one push record line: `aps.timestamp`, `stale-date`,
/// `dismissal-date`, `apns-expiration` and a running game clock's `endsAt` (Unix seconds); on
/// Android, the data's `timestamp` and `dismiss_after` and the clock's `endsAt`.
struct DeviceDates {
    var seq: Int
    var event: String
    var timestamp: Double?
    var staleDate: Double?
    var dismissalDate: Double?
    /// The header's value; 0 means "deliver now or never" (no date).
    var expiration: Double?
    var endsAt: Double?

    /// Nil for a line that is not a push record (a channel request). An Android record's dates
    /// are its data's `timestamp` and `dismiss_after` (milliseconds), as seconds.
    init?(line: Data) {
        guard let record = RecordLine(line) else { return nil }
        seq = record.seq
        event = record.event
        timestamp = record.timestamp
        if let aps = record.aps {
            staleDate = (aps["stale-date"] as? NSNumber)?.doubleValue
            dismissalDate = (aps["dismissal-date"] as? NSNumber)?.doubleValue
        } else {
            dismissalDate = record.data?["dismiss_after"].flatMap(Double.init).map { $0 / 1000 }
        }
        expiration = record.headers["apns-expiration"].flatMap(Double.init)
        let clock = record.state?["clock"] as? [String: Any]
        // A Swift `Date` in the content-state counts from 2001 (`JSONEncoder`'s default).
        endsAt = ((clock?["running"] as? [String: Any])?["endsAt"] as? NSNumber).map { $0.doubleValue + 978_307_200 }
    }

    /// Checks that records made on today's clock between `since` and `until` carry today's dates:
    /// none before the run began (a device would ignore the update, drop it as expired, dismiss
    /// the activity at once or show a game clock already run out), a timestamp at most twice the
    /// failover head start (a broadcast activity's first push) and one second per record ahead of
    /// the run's end, and a game
    /// clock that runs out at most a quarter (12 minutes) after the run. Returns how many
    /// records it checked.
    @discardableResult
    static func expectToday(
        _ lines: [Data], since: Date, until: Date, what: String, sourceLocation: SourceLocation = #_sourceLocation
    ) -> Int {
        let since = since.timeIntervalSince1970.rounded(.down), until = until.timeIntervalSince1970
        var checked = 0
        for dates in lines.compactMap(DeviceDates.init(line:)) {
            checked += 1
            let name = "\(what): seq \(dates.seq) (\(dates.event))"
            let timestamp = dates.timestamp ?? 0
            // A broadcast activity's first push leads by twice the head start (``PushRenderer``).
            #expect(timestamp >= since && timestamp <= until + Double(2 * PushRenderer.Configuration.failoverHeadStart + lines.count),
                    "\(name): aps.timestamp \(timestamp) is not today's (the run: \(since)–\(until))", sourceLocation: sourceLocation)
            for (key, date) in [("stale-date", dates.staleDate), ("dismissal-date", dates.dismissalDate)] {
                if let date { #expect(date > since, "\(name): \(key) \(date) is before the run began (\(since))", sourceLocation: sourceLocation) }
            }
            if let expiration = dates.expiration, expiration != 0 {
                #expect(expiration > since, "\(name): apns-expiration \(expiration) is before the run began (\(since))", sourceLocation: sourceLocation)
            }
            if let endsAt = dates.endsAt {
                #expect(endsAt >= since && endsAt <= until + 720,
                        "\(name): the game clock's endsAt \(endsAt) is not within a quarter of the run (\(since)–\(until))", sourceLocation: sourceLocation)
            }
        }
        return checked
    }
}
