import Foundation

/// How `serve` and `poll` give each broadcast-mode game its own channel.
public struct ChannelManagement: Hashable, Sendable {
    /// ScoreFeed creates each game's channel when the game is first known and deletes it after
    /// the game (`--channels manage`). Off: a game's channel comes from its header alone.
    public var manage: Bool
    /// APNs' message-storage policy for the channels ScoreFeed creates (and, in
    /// `apns-expiration`, what the broadcasts assume of any channel): 0 stores nothing, Apple's
    /// advice for sports.
    public var storage: Int
    /// Seconds a channel ScoreFeed made stays after the game's `end` was delivered, before it is
    /// deleted.
    public var linger: TimeInterval
    /// The most channels ScoreFeed keeps at once (APNs allows 10,000 per app and environment).
    public var maxChannels: Int
    /// Every channel of this app (in this environment) is this state directory's: channels APNs
    /// lists that no game owns are deleted (never while a create is unanswered, nor when games
    /// use channels your backend made). Off: they are only reported.
    public var deleteUnknown: Bool

    /// 120 s: with storage policy 0 a broadcast is delivered at once or never, so two minutes
    /// lets APNs finish fanning out the `end` with room to spare, frees the slot well before
    /// the 10,000 cap matters, and fits inside `serve`'s 600 s drain, so the last game's
    /// channel is deleted before `serve` exits.
    public static let defaultLinger: TimeInterval = 120

    public init(
        manage: Bool = false, storage: Int = 0, linger: TimeInterval = ChannelManagement.defaultLinger,
        maxChannels: Int = 10_000, deleteUnknown: Bool = false
    ) {
        self.manage = manage
        self.storage = storage
        self.linger = linger
        self.maxChannels = maxChannels
        self.deleteUnknown = deleteUnknown
    }
}
