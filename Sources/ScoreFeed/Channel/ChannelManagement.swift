import Foundation

/// How `serve` and `poll` give each broadcast-mode game its own channel: what spans the games.
/// (What each channel is made with, its message-storage policy and its linger after the game,
/// is the renderer's: ``PushRenderer/Configuration/messageStorage``,
/// ``PushRenderer/Configuration/channelLinger``.)
public struct ChannelManagement: Hashable, Sendable {
    /// ScoreFeed creates each game's channel when the game is first known and deletes it after
    /// the game (`--channels manage`). Off: a game's channel comes from its header alone.
    public var manage: Bool
    /// The most channels ScoreFeed keeps at once (APNs allows 10,000 per app and environment).
    public var maxChannels: Int
    /// Every channel of this app (in this environment) is this state directory's: channels APNs
    /// lists that no game owns are deleted (never while a create is unanswered, nor when games
    /// use channels your backend made). Off: they are only reported.
    public var deleteUnknown: Bool

    public init(
        manage: Bool = false, maxChannels: Int = 10_000, deleteUnknown: Bool = false
    ) {
        self.manage = manage
        self.maxChannels = maxChannels
        self.deleteUnknown = deleteUnknown
    }
}
