import Foundation

/// `channels.json` in the state directory: each game's broadcast channel (id, state, who made
/// it, when it opened), for the app's backend to serve to the app, which subscribes with
/// ActivityKit's `pushType: .channel(id)`. Rewritten atomically on every change; derived from
/// the games' checkpoints, which stay the truth (a restart writes it anew from them), and from the
/// channels a restart kept for games whose checkpoints were lost, which only this file still
/// names (``ChannelBoard/salvage(from:)``).
///
/// ```json
/// {"format":1,"games":{"0022400762":{"channel":"3q2+7w==","state":"open","origin":"scorefeed",
///   "storage":0,"created":1739240000}}}
/// ```
public struct ChannelDirectory: Hashable, Sendable {
    public static let fileName = "channels.json"

    /// One game's row.
    public struct Entry: Codable, Hashable, Sendable {
        /// The channel id (base64), once known.
        public var channel: String?
        /// none, creating, open, lingering, deleting, deleted or refused.
        public var state: String
        /// header (your backend made it) or scorefeed.
        public var origin: String?
        public var storage: Int
        /// When the channel opened, Unix seconds.
        public var created: Double?
        /// Why the game has no channel (refused).
        public var reason: String?

        public init(_ channel: BroadcastChannel) {
            self.channel = channel.id
            state = channel.state
            origin = channel.origin?.rawValue
            storage = channel.storage
            created = channel.created.map { ($0.timeIntervalSince1970 * 1000).rounded() / 1000 }
            if case .refused(let reason, _) = channel.phase { self.reason = reason }
        }
    }

    public var games: [String: Entry] = [:]

    public init() {}

    /// The file's bytes (sorted keys: the same channels always give the same bytes).
    public func encoded() -> Data {
        struct File: Encodable {
            var format = 1
            var games: [String: Entry]
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        return (try? encoder.encode(File(games: games))) ?? Data("{\"format\":1,\"games\":{}}".utf8)
    }

    /// Reads `channels.json` (`file` names it in errors).
    public static func decode(_ data: Data, file: String) throws(ScoreFeedError) -> ChannelDirectory {
        struct File: Decodable {
            var format: Int
            var games: [String: Entry]
        }
        let read: File
        do {
            read = try JSONDecoder().decode(File.self, from: data)
        } catch let error as DecodingError {
            throw DecodingErrorText.error(error, data: data, file: file)
        } catch {
            throw ScoreFeedError(.malformedJSON, "\(error)", at: .init(file: file))
        }
        guard read.format == 1 else {
            throw ScoreFeedError(.unknownFormat, "channels.json format \(read.format); this version reads format 1", at: .init(file: file))
        }
        var directory = ChannelDirectory()
        directory.games = read.games
        return directory
    }
}
