import Foundation
import ScoreFeedModel

extension PushRenderer {
    /// A recording replayed against the real clock (`replay --speed`): the engine keeps the feed's
    /// recorded times (its decisions are instant replay's), and every date a device reads is put
    /// on today's wall clock. A recorded game's own dates are long past: a device ignores an update
    /// whose `aps.timestamp` is older than what it shows, APNs drops a push past its
    /// `apns-expiration`, and an `end` past its `dismissal-date` removes the activity at once.
    public struct Pacing: Hashable, Sendable, Codable {
        /// The feed time that plays at ``wallStart``: the recording's first event.
        public var feedStart: Date
        /// When the replay started on the wall clock.
        public var wallStart: Date
        /// How many times faster than real time the recording plays.
        public var speed: Double

        public init(feedStart: Date, wallStart: Date, speed: Double) {
            self.feedStart = feedStart
            self.wallStart = wallStart
            self.speed = speed
        }

        /// The wall-clock moment a feed time plays at.
        public func wall(_ feedTime: Date) -> Date {
            wallStart.addingTimeInterval(max(0, feedTime.timeIntervalSince(feedStart)) / speed)
        }

        /// `state` as sent at `sentAt` (feed time), played at `moment` (``wall(_:)``): a running
        /// game clock keeps the seconds it had left at the send, counted from `moment`, so the
        /// widget shows the game's clock at each push (between pushes it counts down in real
        /// seconds, whatever the speed).
        func shown(_ state: GameState, sentAt: Date, moment: Date) -> GameState {
            guard case .running(let endsAt) = state.clock else { return state }
            var shown = state
            shown.clock = .running(endsAt: moment.addingTimeInterval(endsAt.timeIntervalSince(sentAt)))
            return shown
        }
    }
}
