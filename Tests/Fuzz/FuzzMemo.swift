// libFuzzer target: a poller's copies of one play-by-play read one after the other with its memo
// (``LiveSnapshot/Memo``: the actions a copy repeats byte for byte are not read, mapped or
// folded again) against each copy read alone. The input is cut at its 0x00 bytes into up to four
// copies, read in turn; any difference in what a copy gives (its events, score, end, stamp,
// teams, refusals, or its error) traps, as the snapshot must be the same either way.
import Foundation

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let bytes = Data(UnsafeRawBufferPointer(start: start, count: count))
    let copies = bytes.split(separator: 0, maxSplits: 3, omittingEmptySubsequences: false).map { Data($0) }
    var memo = LiveSnapshot.Memo()
    for copy in copies {
        let alone = Result { () throws(ScoreFeedError) in
            try LiveSnapshot.decode(playByPlay: copy, url: "fuzz", boxscore: nil, box: nil, homeTeamId: nil)
        }
        let after = Result { () throws(ScoreFeedError) in
            try LiveSnapshot.decode(playByPlay: copy, url: "fuzz", boxscore: nil, box: nil, homeTeamId: nil, memo: &memo)
        }
        switch (alone, after) {
        case (.success(let a), .success(let b)):
            guard a.events == b.events, a.score == b.score, a.newest == b.newest, a.end == b.end, a.endListed == b.endListed,
                  a.behindBoxscore == b.behindBoxscore, a.teamsKnown == b.teamsKnown, a.stamp == b.stamp,
                  a.attributes == b.attributes, a.rejected.map(\.description) == b.rejected.map(\.description)
            else { fatalError("a copy read after the last one gives another snapshot than read alone") }
        case (.failure(let a), .failure(let b)):
            guard a.description == b.description else { fatalError("a copy read after the last one fails otherwise: \(a) / \(b)") }
        default:
            fatalError("a copy read after the last one \(alone.isSuccess ? "fails" : "is read") where read alone it \(alone.isSuccess ? "is read" : "fails")")
        }
    }
    return 0
}

extension Result {
    var isSuccess: Bool {
        if case .success = self { true } else { false }
    }
}
