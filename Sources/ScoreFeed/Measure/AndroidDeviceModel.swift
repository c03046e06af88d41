import Foundation
import ScoreFeedModel

/// The stated model of an Android phone receiving a game's FCM messages, used to score Android
/// policies as ``DeviceModel`` scores iOS ones (the facts are Firebase's, in DESIGN.md):
///
/// - a `HIGH` (priority 10) message is delivered at once: it wakes the phone from Doze;
/// - a `NORMAL` (priority 5) message waits for Doze's next maintenance window:
///   ``normalDelay`` late;
/// - a collapsible message (one with a `collapse_key`) draws on the phone's bucket of
///   collapsible messages: ``burst`` (20) at most, one token back every ``refill`` (3 minutes);
///   one that finds the bucket empty waits for the next token, and a newer one with the key
///   replaces the one waiting (throttled messages are delayed, not dropped);
/// - past ``perMinute`` (240) messages in a minute or ``perHour`` (5,000) in an hour, more are
///   dropped;
/// - the phone stays online, and the notification shows the newest `timestamp` delivered: an
///   older one arriving late is ignored.
public struct AndroidDeviceModel: Hashable, Sendable, Codable {
    public var normalDelay: TimeInterval
    public var burst: Int
    public var refill: TimeInterval
    public var perMinute: Int
    public var perHour: Int

    /// Five minutes for `NORMAL`: Doze's maintenance windows come minutes apart and grow further
    /// apart the longer the phone lies still (Android does not promise a figure).
    public init(normalDelay: TimeInterval = 300, burst: Int = 20, refill: TimeInterval = 180, perMinute: Int = 240, perHour: Int = 5000) {
        self.normalDelay = normalDelay
        self.burst = burst
        self.refill = refill
        self.perMinute = perMinute
        self.perHour = perHour
    }

    /// What the notification showed and when, for these messages.
    public func screen(_ pushes: [DeviceModel.Sent]) -> [DeviceModel.Shown] {
        var delivered: [(time: Date, push: DeviceModel.Sent)] = []
        var tokens = Double(burst)
        var refilledAt: Date?
        var waiting: DeviceModel.Sent?
        var sentTimes: [Date] = []

        /// The bucket at `time`: tokens back since the last look.
        func refillBucket(to time: Date) {
            if let last = refilledAt {
                tokens = min(Double(burst), tokens + max(0, time.timeIntervalSince(last)) / refill)
            }
            refilledAt = time
        }
        /// The waiting collapsible message goes out when the bucket has a token again, if before `time`.
        func release(before time: Date) {
            guard let held = waiting, let last = refilledAt else { return }
            let due = last.addingTimeInterval((1 - tokens) * refill)
            guard due <= time else { return }
            refillBucket(to: due)
            tokens -= 1
            waiting = nil
            delivered.append((max(due, held.priority == 10 ? held.sentAt : held.sentAt.addingTimeInterval(normalDelay)), held))
        }

        for push in pushes.sorted(by: { ($0.sentAt, $0.timestamp) < ($1.sentAt, $1.timestamp) }) {
            release(before: push.sentAt)
            // FCM's per-device caps: past them, a message is dropped.
            sentTimes.removeAll { $0 <= push.sentAt.addingTimeInterval(-3600) }
            let lastMinute = sentTimes.filter { $0 > push.sentAt.addingTimeInterval(-60) }.count
            guard sentTimes.count < perHour, lastMinute < perMinute else { continue }
            sentTimes.append(push.sentAt)
            let arrives = push.priority == 10 ? push.sentAt : push.sentAt.addingTimeInterval(normalDelay)
            guard push.collapsible else {
                delivered.append((arrives, push))
                continue
            }
            refillBucket(to: push.sentAt)
            if waiting != nil || tokens < 1 {
                // A newer one with the key replaces the one waiting.
                waiting = push
                continue
            }
            tokens -= 1
            delivered.append((arrives, push))
        }
        release(before: .distantFuture)

        var shown: [DeviceModel.Shown] = []
        var newest = Int.min
        for arrival in delivered.sorted(by: { ($0.time, $0.push.timestamp) < ($1.time, $1.push.timestamp) }) {
            guard arrival.push.timestamp > newest else { continue }
            newest = arrival.push.timestamp
            shown.append(DeviceModel.Shown(time: arrival.time, push: arrival.push))
        }
        return shown
    }

    /// The model in a sentence, for reports.
    public var summary: String {
        "HIGH shown at once; NORMAL \(Int(normalDelay)) s late (Doze); collapsible messages \(burst) at once, then one per "
            + "\(Int(refill)) s (a newer one replacing the one waiting); at most \(perMinute) a minute and \(perHour) an hour; "
            + "an older timestamp than the newest shown is ignored"
    }
}
