import Foundation
import Testing
@testable import ScoreFeed

/// The byte reader's liveData path gives what `JSONDecoder` gives, and takes the real documents.
@Suite("liveData read by the byte reader = JSONDecoder")
struct LiveDataScanningTests {
    static func decoded(_ data: Data) -> LiveDataFormat.Root? {
        try? JSONDecoder().decode(LiveDataFormat.Root.self, from: data)
    }

    /// Every real play-by-play and boxscore: taken by the byte reader, equal to `JSONDecoder`'s.
    @Test(.enabled(if: NBAFiles.available, NBAFiles.absentReason))
    func realDocumentsReadTheSame() throws {
        var taken = 0
        for name in NBAFiles.games + NBAFiles.companions {
            let data = try Data(contentsOf: URL(fileURLWithPath: NBAFiles.path(name)))
            guard case .liveData = FeedShape.of(data) else { continue }
            let scanned = try #require(LiveDataFormat.Root.scanning(data), "\(name) declined")
            #expect(scanned == Self.decoded(data), "\(name)")
            #expect(scanned.game?.actions.map { !$0.isEmpty } ?? true)
            taken += 1
        }
        #expect(taken >= 5)
    }

    /// Odd spellings: the byte reader declines (and `JSONDecoder` decides) or reads them alike.
    @Test(arguments: [
        (#"{"game":{"gameId":"1","actions":[{"actionNumber":1,"period":1,"actionType":"period","subType":"start","clock":"PT12M00.00S","scoreHome":"0","scoreAway":"0"}]}}"#, true),
        (#"{"game":{"gameId":"1","actions":[{"actionNumber":"7","period":1.0,"scoreHome":3}]}}"#, false),
        (#"{"game":{"gameId":"1","actions":[1,"x",null,{"actionNumber":2}]}}"#, false),
        (#"{"game":{"gameId":"1","actions":[{"actionNumber":2,"actionNumber":3}]}}"#, false),
        (#"{"meta":{"time":"2025-02-11 01:16:27.797538"},"game":{"gameId":"1","actions":[]}}"#, true),
        (#"{"meta":"x","game":{"gameId":"1","actions":[],"homeTeam":7,"awayTeam":{"teamId":5,"score":"101"}}}"#, false),
        (#"{"game":null,"meta":null}"#, true),
        (#"{"game":{"gameId":"\u0031","gameStatus":3,"gameStatusText":"Final","homeTeam":{"teamId":1610612742,"teamTricode":"DAL","score":120}}}"#, true),
        (#"{"game":{"actions":[{"orderNumber":12.5,"description":"Jokić 3' Layup (2 PTS)","x":1.5e3,"qualifiers":["a",{"b":[]}]}]}}"#, true),
        (#"[1,2]"#, false),
        (#"{"game":{"actions":[{"period":1}]}} x"#, false),
    ])
    func oddDocumentsReadTheSame(_ text: String, taken: Bool) {
        let data = Data(text.utf8)
        let scanned = LiveDataFormat.Root.scanning(data)
        #expect((scanned != nil) == taken)
        if let scanned { #expect(scanned == Self.decoded(data)) }
    }

    /// The documents a simulated day serves (generated games rendered as liveData) are taken.
    @Test func simulatedDocumentsAreTaken() throws {
        let game = SimulatedGame(generated: GameGenerator(seed: 3).generate())
        let data = game.playByPlay(actions: 200, written: Date(timeIntervalSince1970: 1_739_240_000))
        let scanned = try #require(LiveDataFormat.Root.scanning(data))
        #expect(scanned == Self.decoded(data) && scanned.game?.actions?.count == 200)
    }
}
