import Foundation

/// One game's broadcast channel through its life, as a pure value the game's session owns and
/// checkpoints: none → creating → open → lingering → deleting → deleted, or refused.
///
/// A channel comes from the game's header (your backend made it: ScoreFeed only sends on it) or
/// is created by ScoreFeed (`--channels manage`), which then deletes it once the game's `end` has
/// had the linger to reach devices. The request a phase still needs (a create, a delete) is
/// derived from the phase, so a restart sends it again from the checkpoint alone.
public struct BroadcastChannel: Codable, Hashable, Sendable {
    /// Who made the channel, and so who deletes it.
    public enum Origin: String, Codable, Hashable, Sendable {
        /// The game header's `"channel"`: made by your backend; never created or deleted here.
        case header
        /// Created by ScoreFeed; deleted by it after the game.
        case scorefeed
    }

    public enum Phase: Codable, Hashable, Sendable {
        /// No channel yet: the game's broadcasts wait.
        case none
        /// A create is to be sent, or was sent and not answered yet.
        case creating
        /// Broadcasts go here.
        case open(id: String)
        /// The game's `end` went out; the channel stays until `until` so it reaches devices.
        case lingering(id: String, until: Date)
        /// A delete is to be sent, or was sent and not answered yet.
        case deleting(id: String)
        /// Gone (deleted, or APNs no longer knew it).
        case deleted(id: String)
        /// The game cannot have a channel (a bad header channel, the cap, APNs refused the
        /// create or the delete): its broadcasts wait, and the reason says why.
        case refused(reason: String, id: String?)
    }

    public internal(set) var phase: Phase = .none
    public internal(set) var origin: Origin?
    /// The APNs message-storage policy: 0 stores nothing (Apple's advice for sports), 1 keeps
    /// the most recent message for devices that were offline.
    public internal(set) var storage: Int = 0
    /// Wall-clock time the channel opened (for people: `channels.json`, `scorefeed channels`).
    public internal(set) var created: Date?
    /// Creates made so far (each gets its own `apns-request-id`); a channel adopted counts as one
    /// (a game live again after ScoreFeed deleted it is given a new one).
    public internal(set) var creates = 0
    /// The identity of the state directory (without one, of the run) that creates this game's
    /// channel (``claim(for:)``), folded into the create's `apns-request-id`. A state directory
    /// that replaces a lost one has another identity, so none of its creates carries a request id
    /// the lost one sent, and a sender that deduplicates by it never hands back the lost
    /// directory's channel (that one becomes an orphan, which the reconciliation finds). Nil for a
    /// channel created before identities existed (its create keeps the request id it was sent
    /// with) and for one only used (your backend's).
    public internal(set) var owner: String?

    public init() {}

    /// The channel's id once known (also while lingering, deleting or deleted).
    public var id: String? {
        switch phase {
        case .none, .creating: return nil
        case .open(let id), .lingering(let id, _), .deleting(let id), .deleted(let id): return id
        case .refused(_, let id): return id
        }
    }

    /// The id broadcasts may go to now: open or lingering.
    public var sendableID: String? {
        switch phase {
        case .open(let id), .lingering(let id, _): return id
        default: return nil
        }
    }

    /// Whether ScoreFeed holds (or may hold) a channel at APNs for this game: it counts against
    /// the app's cap and must be deleted (a channel whose delete APNs refused still exists).
    public var isLive: Bool {
        guard origin == .scorefeed else { return false }
        switch phase {
        case .creating, .open, .lingering, .deleting: return true
        case .refused(_, let id): return id != nil
        case .none, .deleted: return false
        }
    }

    /// Whether the channel lingers after its game's end (before its delete).
    public var isLingering: Bool {
        if case .lingering = phase { return true }
        return false
    }

    /// Whether the linger after the game's end is over at `now` (the delete may go once the sink
    /// holds none of the game's pushes).
    public func lingerIsOver(now: Date) -> Bool {
        if case .lingering(_, let until) = phase { return until <= now }
        return false
    }

    /// When ``advance(now:)`` next has something to do (the end of the linger).
    public var deadline: Date? {
        if case .lingering(_, let until) = phase { return until }
        return nil
    }

    /// The phase's name, as `channels.json` and `scorefeed channels` print it.
    public var state: String {
        switch phase {
        case .none: return "none"
        case .creating: return "creating"
        case .open: return "open"
        case .lingering: return "lingering"
        case .deleting: return "deleting"
        case .deleted: return "deleted"
        case .refused: return "refused"
        }
    }

    // MARK: - Transitions

    /// Sends on `id`, made by your backend (the game header's `"channel"`); `storage` is the
    /// policy it was made with.
    public mutating func use(_ id: String, storage: Int) {
        guard case .none = phase else { return }
        if let problem = Self.problem(with: id) {
            phase = .refused(reason: "the header's channel \(problem)", id: nil)
            return
        }
        origin = .header
        self.storage = storage
        phase = .open(id: id)
    }

    /// Takes on `id`, a channel ScoreFeed made for this game before its checkpoint was lost
    /// (``ChannelBoard/salvage(from:)``): devices that started the game's activity subscribed to
    /// it, so its pushes go on there, and ScoreFeed deletes it after the game as its own. It
    /// counts as a create, and the owner names it: a create after it (the game back after its
    /// end) never repeats a request id the lost session sent, whose count is not known.
    public mutating func adopt(_ id: String, storage: Int, created: Date?) {
        guard case .none = phase, Self.problem(with: id) == nil else { return }
        creates += 1
        owner = owner.map { "\($0)+\(id)" } ?? id
        origin = .scorefeed
        self.storage = storage
        self.created = created
        phase = .open(id: id)
    }

    /// Makes `identity` (the state directory's, or the run's) the owner of the channel the game
    /// is still to get. A channel already asked for, or already claimed, keeps its owner: a game
    /// started afresh on a lost checkpoint is `<identity>/after-<seq>` through its restarts, so its
    /// creates never repeat the request id of a channel its lost life made.
    public mutating func claim(for identity: String) {
        guard case .none = phase, owner == nil else { return }
        owner = identity
    }

    /// Starts creating a channel with the storage policy `storage` (the request names the game
    /// when it is made: ``request(game:bundleId:)``).
    public mutating func create(storage: Int) {
        guard case .none = phase else { return }
        creates += 1
        origin = .scorefeed
        self.storage = storage
        phase = .creating
    }

    /// The game will have no channel, for `reason`.
    public mutating func refuse(_ reason: String) {
        guard case .none = phase else { return }
        phase = .refused(reason: reason, id: nil)
    }

    /// Back to open on the channel whose delete APNs refused for good (it still exists, and its
    /// devices are still subscribed to it): for a game live again, whose pushes would otherwise
    /// wait forever for a channel. Returns whether there was one to take back.
    @discardableResult
    public mutating func takeBack() -> Bool {
        guard origin == .scorefeed, case .refused(_, let id?) = phase else { return false }
        phase = .open(id: id)
        return true
    }

    /// The game's `end` was delivered at `now`: a channel ScoreFeed made lingers `linger`
    /// seconds, then is deleted.
    public mutating func endDelivered(now: Date, linger: TimeInterval) {
        guard origin == .scorefeed, case .open(let id) = phase else { return }
        phase = .lingering(id: id, until: now.addingTimeInterval(max(0, linger)))
    }

    /// Moves a linger that is over to deleting.
    public mutating func advance(now: Date) {
        guard case .lingering(let id, let until) = phase, until <= now else { return }
        phase = .deleting(id: id)
    }

    /// Back from lingering to open: the game's `end`, which a restart may have lost in the sink,
    /// goes out again before the channel is deleted (no delete was sent while lingering).
    public mutating func reopen() {
        guard case .lingering(let id, _) = phase else { return }
        phase = .open(id: id)
    }

    /// The request the phase still needs sent, if any.
    public func request(game: String, bundleId: String) -> ChannelRequest? {
        switch phase {
        case .creating:
            return .create(game: game, bundleId: bundleId, storage: storage, requestID: createRequestID(game: game))
        case .deleting(let id):
            return .delete(game: game, bundleId: bundleId, channel: id)
        default:
            return nil
        }
    }

    /// The `apns-request-id` of the create in progress: ``RequestID/uuid(activity:seq:)`` of
    /// `"channel-create:<owner>:<game>"` and the number of creates (`"channel-create:<game>"`
    /// without an owner). The same create sent again (after a restart on the same state directory)
    /// has the same id; another state directory's, or another game's, never does, nor the
    /// game's after its checkpoint was lost (``GameService`` makes its owner the directory's
    /// identity and where the numbering goes on, `<identity>/after-<seq>`).
    func createRequestID(game: String) -> String {
        let name = owner.map { "channel-create:\($0):\(game)" } ?? "channel-create:\(game)"
        return RequestID.uuid(activity: name, seq: creates)
    }

    /// What an answer did to the channel, for the operator.
    public enum Outcome: Hashable, Sendable {
        case opened(String)
        case deleted(String, alreadyGone: Bool)
        /// The request was refused for good; the game holds its pushes (or its channel stays).
        case refused(String)
        /// APNs refused for good to delete the channel (the reason) of a game live again: the game
        /// goes on on it (``takeBack()``).
        case takenBack(String, reason: String)
        /// The answer cannot be used (a create without `apns-channel-id`, APNs busy or down: 429,
        /// 5xx); the request is sent again later.
        case unusable(String)
        /// The answer was not for the current phase; nothing changed.
        case ignored
    }

    /// Applies APNs' answer to the phase's request, answered at wall-clock `now`.
    @discardableResult
    public mutating func answered(_ answer: ChannelAnswer, now: Date) -> Outcome {
        switch phase {
        case .creating:
            if answer.isSuccess {
                guard let id = answer.channelID, Self.problem(with: id) == nil else {
                    return .unusable("the answer to the create (HTTP \(answer.status)) has no usable apns-channel-id header")
                }
                phase = .open(id: id)
                created = now
                return .opened(id)
            }
            // Busy or down for now (429, 5xx): not an answer about this channel.
            if answer.isTransient { return .unusable("APNs answered the create HTTP \(answer.status) (busy or down)") }
            let reason = "APNs refused the create: HTTP \(answer.status)" + (answer.reason.map { " \($0)" } ?? "")
            phase = .refused(reason: reason, id: nil)
            return .refused(reason)
        case .deleting(let id):
            if answer.isSuccess || answer.meansChannelGone {
                phase = .deleted(id: id)
                return .deleted(id, alreadyGone: !answer.isSuccess)
            }
            if answer.isTransient { return .unusable("APNs answered the delete of channel \(id) HTTP \(answer.status) (busy or down)") }
            let reason = "APNs refused to delete channel \(id): HTTP \(answer.status)" + (answer.reason.map { " \($0)" } ?? "")
            phase = .refused(reason: reason, id: id)
            return .refused(reason)
        default:
            return .ignored
        }
    }

    /// What is wrong with `id` as a channel id (empty, not base64), or nil.
    public static func problem(with id: String) -> String? {
        if id.isEmpty { return "is empty" }
        if id.utf8.count > 256 { return "is longer than 256 bytes" }
        guard let bytes = Data(base64Encoded: id), !bytes.isEmpty else { return "\"\(id.prefix(40))\" is not base64" }
        return nil
    }
}
