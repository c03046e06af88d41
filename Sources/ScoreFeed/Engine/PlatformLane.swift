import Foundation
import ScoreFeedModel

/// What one lock screen's platform decides and renders for a game: its push policy and budget,
/// its renderer's numbering, the state its last push showed and the pushes waiting for the sink.
/// A ``GameSession`` folds the game once and hands every change to each of its lanes
/// (`--platform ios,android`: an APNs lane and an FCM lane), so each platform spends its own
/// budget under its own policy, on the same scoreboard.
public struct PlatformLane: Sendable {
    public internal(set) var policy: any PushPolicy
    public internal(set) var renderer: PushRenderer
    /// The state in the last push rendered (the device's view once delivered).
    public internal(set) var lastPushed: GameState
    /// Changes since the last push.
    public internal(set) var unsentEvents = 0
    /// Rendered pushes (and refusals) waiting for the sink, oldest first.
    public internal(set) var outbox: [PushRenderer.Output] = []
    /// The `seq`s of the pushes the outbox held when the game was restored: the instance before
    /// may have handed them to its sink (a crash or a power cut can lose the line that says so),
    /// so one superseded later may have reached Apple, and its priority 10 stays spent.
    public internal(set) var mayHaveLeft: Set<Int> = []
    /// The policy's state was absent or unreadable in the checkpoint (written by another
    /// version): it resumed with a fresh policy that counts the hour's budget as spent.
    public internal(set) var policyWasReset = false

    /// A lane's options: how its pushes are rendered and the policy's configuration.
    public struct Options: Hashable, Sendable {
        public var renderer: PushRenderer.Configuration
        public var policy: Coalescer.Configuration

        public init(renderer: PushRenderer.Configuration, policy: Coalescer.Configuration) {
            self.renderer = renderer
            self.policy = policy
        }

        /// The Android lane beside an iOS one (`--platform ios,android`): the same mode, activity
        /// and lifetimes as `ios`, rendered as FCM messages for `project`, under Android's policy.
        public static func android(beside ios: PushRenderer.Configuration, project: String? = nil) -> Options {
            var renderer = PushRenderer.Configuration(
                bundleId: ios.bundleId, activity: ios.activity, mode: ios.mode.isToken ? .token : .broadcastPerGame,
                staleAfter: ios.staleAfter, expiration: ios.expiration, dismissAfter: ios.dismissAfter)
            renderer.platform = .android
            renderer.fcmProject = project
            renderer.headStart = ios.headStart
            renderer.pacing = ios.pacing
            return Options(renderer: renderer, policy: .android)
        }
    }

    public init(attributes: GameAttributes, policy: any PushPolicy, renderer: PushRenderer.Configuration, state: GameState) {
        self.policy = policy
        self.renderer = PushRenderer(attributes: attributes, configuration: renderer)
        lastPushed = state
    }

    /// The lane's platform.
    public var platform: PushRenderer.Platform { renderer.configuration.platform }

    /// Whether a push (not only refusals) waits in the outbox.
    var outboxHoldsAPush: Bool {
        outbox.contains { if case .push = $0 { true } else { false } }
    }

    /// The first push waiting in the outbox (refusals aside), nil when none waits.
    var nextPush: PushRecord? {
        outboxPushes.first
    }

    /// The pushes waiting in the outbox, oldest first (refusals aside).
    var outboxPushes: some Collection<PushRecord> {
        outbox.lazy.compactMap { if case .push(let record) = $0 { record } else { nil } }
    }
}
