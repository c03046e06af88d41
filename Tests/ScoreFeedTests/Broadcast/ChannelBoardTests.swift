import Foundation
import Testing
@testable import ScoreFeed

/// The channels of all games as one pure value: what a game starting, an engine's report and
/// APNs' list lead to, as tables, without actors or the APNs test server.
@Suite("ChannelBoard: the channels of all games")
struct ChannelBoardTests {
    static let now = Date(timeIntervalSince1970: 1_795_651_200)
    static let good = "Y2hhbm5lbEE=", other = "Y2hhbm5lbEI="

    static func board(manage: Bool = true, cap: Int = 10_000, deleteUnknown: Bool = false) -> ChannelBoard {
        ChannelBoard(perGame: true, management: ChannelManagement(manage: manage, maxChannels: cap, deleteUnknown: deleteUnknown))
    }

    /// A channel in `phase`, made by `origin`.
    static func channel(_ phase: BroadcastChannel.Phase, origin: BroadcastChannel.Origin = .scorefeed, creates: Int = 1) -> BroadcastChannel {
        var channel = BroadcastChannel()
        channel.phase = phase
        channel.origin = origin
        channel.creates = creates
        return channel
    }

    static func setUps(_ actions: [ChannelBoard.Action]) -> [String] {
        actions.compactMap { if case .setUp(let game, let setup) = $0 { "\(game) \(setup)" } else { nil } }
    }

    static func reports(_ actions: [ChannelBoard.Action]) -> [String] {
        actions.compactMap { if case .report(let text) = $0 { text } else { nil } }
    }

    @Test func aHeadersChannelIsUsedRefusedWhenBadOrAnotherGames() {
        var board = Self.board(manage: false)
        #expect(Self.setUps(board.start("A", header: Self.good)) == ["A use(\"\(Self.good)\")"])
        _ = board.reported("A", Self.channel(.open(id: Self.good), origin: .header), now: Self.now)
        #expect(Self.setUps(board.start("B", header: Self.good)).first?.contains("refuse") == true, "two games never share one")
        #expect(Self.setUps(board.start("C", header: "not base64!")).first?.contains("refuse") == true)
        #expect(board.start("D", header: nil).isEmpty, "no header, not managing: no channel")
        #expect(board.start("A", header: Self.other).isEmpty, "a game with a channel keeps it")
    }

    /// A damaged checkpoint loses its game's channel, but `channels.json` still names it: the
    /// board keeps the open or lingering channels ScoreFeed made for games no checkpoint restored
    /// (not your backend's, not a deleted one, not a restored game's), counts them against the cap,
    /// owns them against APNs' list, lists them in the directory, and gives each back to its game
    /// when the game starts again, before the cap is asked.
    @Test func aLostCheckpointsChannelIsKeptAndGivenBackToItsGame() {
        var board = Self.board(cap: 2, deleteUnknown: true)
        board.restored("R", channel: Self.channel(.open(id: "UmVzdG9yZWQ=")))
        var last = ChannelDirectory()
        last.games["A"] = .init(Self.channel(.open(id: Self.good)))
        last.games["B"] = .init(Self.channel(.open(id: Self.other), origin: .header))
        last.games["C"] = .init(Self.channel(.deleted(id: "RGVsZXRlZA==")))
        last.games["D"] = .init(Self.channel(.lingering(id: "TGluZ2Vy", until: Self.now)))
        last.games["R"] = .init(Self.channel(.open(id: "T2xkZXI=")))
        #expect(board.salvage(from: last) == ["A", "D"])
        #expect(board.live == 3 && board.directory.games["A"]?.channel == Self.good)
        let listed = board.unknown(in: [Self.good, "TGluZ2Vy", "UmVzdG9yZWQ=", "T3JwaGFu"])
        #expect(listed.unknown == ["T3JwaGFu"] && listed.deletable, "the kept channels are owned")
        #expect(Self.setUps(board.start("E", header: nil)).isEmpty && board.waiting == ["E"], "the cap counts the kept ones")
        #expect(Self.setUps(board.start("A", header: nil)) == ["A adopt(\"\(Self.good)\", storage: 0, created: nil)"], "its own, past the cap")
        #expect(board.salvaged.keys.sorted() == ["D"] && board.live == 3)
        _ = board.reported("A", Self.channel(.open(id: Self.good)), now: Self.now)
        #expect(board.live == 3 && board.directory.games["A"]?.state == "open")
        board.dropSalvaged(["D"])
        #expect(board.salvaged.isEmpty && board.directory.games["D"] == nil && board.live == 2)
        var token = ChannelBoard(perGame: true, management: ChannelManagement(manage: false))
        #expect(token.salvage(from: last).isEmpty, "not managing: nothing of ScoreFeed's to keep")
    }

    /// A kept channel is deleted by a drain only once no device can listen: its game ended (it
    /// lingered) or it opened 12 hours ago; a header naming another channel wins over it (it is
    /// then no game's), a header naming it for another game is refused, one APNs no longer lists
    /// is dropped, the same id is kept once, and one whose delete failed is kept again.
    @Test func keptChannelsAreDeletedOnlyOnceNoDeviceListens() {
        var board = Self.board()
        let opened = Self.now.addingTimeInterval(-3600)
        var fresh = Self.channel(.open(id: Self.good))
        fresh.created = opened
        var old = Self.channel(.open(id: "T2xk"))
        old.created = Self.now.addingTimeInterval(-ChannelBoard.keptChannelLife)
        var last = ChannelDirectory()
        last.games["A"] = .init(fresh)
        last.games["B"] = .init(old)
        last.games["C"] = .init(Self.channel(.lingering(id: "TGluZ2Vy", until: Self.now)))
        last.games["D"] = .init(Self.channel(.open(id: Self.other)))
        last.games["E"] = .init(Self.channel(.open(id: Self.other)))
        #expect(board.salvage(from: last) == ["A", "B", "C", "D"], "the same id kept once, for the first game")
        #expect(board.salvagedToDelete(now: Self.now) == ["B", "C", "D"], "ended, 12 hours old, or opened when not known")
        #expect(Self.setUps(board.start("F", header: Self.good)).first?.contains("refuse") == true, "game A's")
        #expect(Self.setUps(board.start("A", header: "SGVhZGVy")) == ["A use(\"SGVhZGVy\")"])
        #expect(board.salvaged["A"] == nil, "your backend's channel wins; the kept one is no game's")
        #expect(board.dropSalvaged(notIn: ["T2xk"]) == ["C", "D"])
        let entry = board.salvaged["B"]!
        board.dropSalvaged(["B"])
        board.keep("B", entry)
        #expect(board.salvaged["B"] == entry, "a failed delete keeps it")
    }

    @Test func theCapCountsReservationsAndTheWaitingGetFreedChannelsInOrder() {
        var board = Self.board(cap: 2)
        #expect(Self.setUps(board.start("A", header: nil)) == ["A create"])
        #expect(Self.setUps(board.start("B", header: nil)) == ["B create"])
        #expect(board.live == 2, "reserved before their engines report")
        let c = board.start("C", header: nil)
        #expect(Self.setUps(c).isEmpty && Self.reports(c).count == 1 && board.waiting == ["C"])
        #expect(board.start("C", header: nil).isEmpty, "said once")
        _ = board.start("D", header: nil)
        #expect(board.waiting == ["C", "D"])
        _ = board.reported("A", Self.channel(.open(id: Self.good)), now: Self.now)
        _ = board.reported("B", Self.channel(.open(id: Self.other)), now: Self.now)
        #expect(board.grantFreed().isEmpty, "still full")
        _ = board.reported("A", Self.channel(.deleted(id: Self.good)), now: Self.now)
        #expect(Self.setUps(board.grantFreed()) == ["C create"], "the first waiting, once one is freed")
        #expect(board.waiting == ["D"])
    }

    @Test func anEnginesReportIsKeptSaidAndBackedOff() {
        var board = Self.board()
        _ = board.start("A", header: nil)
        let opened = board.reported("A", Self.channel(.open(id: Self.good)), news: [.opened(Self.good)], now: Self.now)
        #expect(opened.contains(.writeDirectory))
        #expect(Self.reports(opened) == ["game A: broadcast channel \(Self.good) created"])
        #expect(board.directory.games["A"] != nil)
        #expect(!board.reported("A", Self.channel(.open(id: Self.good)), now: Self.now).contains(.writeDirectory), "unchanged: not rewritten")
        // A channel taken back after APNs refused its delete (a game live again) is said so, not "its pushes wait".
        let refusal = "APNs refused to delete channel \(Self.good): HTTP 403 Forbidden"
        let takenBack = board.reported("A", Self.channel(.open(id: Self.good)), news: [.takenBack(Self.good, reason: refusal)], now: Self.now)
        #expect(Self.reports(takenBack) == ["game A: \(refusal); the game is live again and goes on on channel \(Self.good)"])
        // Channel work that waits on the sink is woken again, backing off 1, 2, 4 … 60 s, a try
        // after each wake.
        var waits: [TimeInterval] = []
        var now = Self.now
        for _ in 0..<8 {
            for case .wake(_, let at) in board.reported("A", Self.channel(.deleting(id: Self.good)), workWaits: true, now: now) {
                waits.append(at.timeIntervalSince(now))
                now = at
            }
        }
        #expect(waits == [1, 2, 4, 8, 16, 32, 60, 60])
        #expect(board.retry(of: "A") == now, "the last wake")
        // Another try before the wake (an event, a held push) keeps the wake: seed 1, day 65 of
        // 500 found three tries in one instant growing it to 8 s, and the drain missing it.
        let before = now.addingTimeInterval(-30)
        #expect(board.reported("A", Self.channel(.deleting(id: Self.good)), workWaits: true, now: before) == [.wake(game: "A", at: now)])
        _ = board.reported("A", Self.channel(.deleting(id: Self.good)), now: before)
        #expect(board.retry(of: "A") == nil, "none waits once it moved")
        let again = board.reported("A", Self.channel(.deleting(id: Self.good)), workWaits: true, now: before)
        #expect(again.contains(.wake(game: "A", at: before.addingTimeInterval(1))), "from 1 s again once it moved")
        #expect(board.reported("A", Self.channel(.deleting(id: Self.good)), workWaits: true, now: before) == [.wake(game: "A", at: before.addingTimeInterval(1))],
                "a second try in the same instant keeps the wake")
        // Held pushes are said once.
        let held = { board.reported("B", Self.channel(.creating), holding: true, now: Self.now) }
        #expect(Self.reports(held()).count == 1)
        #expect(Self.reports(held()).isEmpty)
    }

    @Test func aGameLiveAgainWithoutItsDeletedChannelGetsANewOne() {
        var board = Self.board()
        _ = board.start("A", header: nil)
        _ = board.reported("A", Self.channel(.deleted(id: Self.good)), now: Self.now)
        #expect(Self.setUps(board.reported("A", Self.channel(.none, creates: 1), now: Self.now)).isEmpty,
                "nothing waits for a channel yet (an ended game whose create was not sent is never asked again)")
        let back = board.reported("A", Self.channel(.none, creates: 1), holding: true, now: Self.now)
        #expect(Self.setUps(back) == ["A create"])
        var fresh = Self.board()
        #expect(Self.setUps(fresh.reported("B", BroadcastChannel(), holding: true, now: Self.now)).isEmpty,
                "a game never given one waits for its start")
    }

    @Test(arguments: [
        // (delete unknown, a create unanswered, a backend's channel in use, deletable)
        (true, false, false, true), (false, false, false, false), (true, true, false, false), (true, false, true, false),
    ])
    func channelsNoGameOwnsAreDeletedOnlyWhenAllAreOurs(deleteUnknown: Bool, creating: Bool, backend: Bool, deletable: Bool) {
        var board = Self.board(deleteUnknown: deleteUnknown)
        _ = board.reported("A", Self.channel(.open(id: Self.good)), now: Self.now)
        if creating { _ = board.reported("B", Self.channel(.creating), now: Self.now) }
        if backend { _ = board.reported("C", Self.channel(.open(id: "aGVhZGVy"), origin: .header), now: Self.now) }
        let found = board.unknown(in: [Self.good, Self.other])
        #expect(found.unknown == [Self.other])
        #expect(found.deletable == deletable)
        #expect((found.why == nil) == deletable)
        #expect(board.unknown(in: [Self.good]).unknown.isEmpty)
    }
}
