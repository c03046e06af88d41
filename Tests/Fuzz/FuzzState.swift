// libFuzzer target: what a state directory holds of a game, read back as a restart reads it.
// The input is cut at its first 0x00 byte: before it, the game's snapshot file (none when
// empty); after it, its journal. Each journal line shaped `<first> <checksum> <body>` has its
// checksum made to hold before it is read, so the fuzzer reaches the inputs' reader and their
// replay, not only the checksum's refusal; the journal is also read as given. Whatever the bytes,
// a restore gives a game or a ScoreFeedError: never a crash, a hang or a trap. And the checkpoint
// reader (CheckpointDecoder) reads what JSONDecoder reads or declines: any other reading traps.
import Foundation

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let bytes = Data(UnsafeRawBufferPointer(start: start, count: count))
    let cut = bytes.firstIndex(of: 0)
    let snapshot = Data(cut.map { bytes[bytes.startIndex..<$0] } ?? bytes)
    let given = Data(cut.map { bytes[($0 + 1)...] } ?? Data())
    var journal = Data()
    for (index, line) in given.split(separator: 0x0A, omittingEmptySubsequences: false).enumerated() {
        if index > 0 { journal.append(0x0A) }
        let fields = line.split(separator: 0x20, maxSplits: 2, omittingEmptySubsequences: false)
        guard fields.count == 3 else {
            journal.append(contentsOf: line)
            continue
        }
        journal.append(contentsOf: fields[0])
        journal.append(contentsOf: Array(" \(String(Journal.checksum(Data(fields[2])), radix: 16)) ".utf8))
        journal.append(contentsOf: fields[2])
    }
    let file = "fuzz/game-F.json"
    // The checkpoint reader reads what `JSONDecoder` reads, or declines: a snapshot it reads, and
    // a journal's base, `JSONDecoder` reads to the same game (written again, the same bytes).
    for saved in [snapshot, Journal.base(of: given) ?? Data()] where !saved.isEmpty {
        guard let mine = CheckpointDecoder.decode(GameSession.self, from: saved) else { continue }
        guard let theirs = try? JSONDecoder().decode(GameSession.self, from: saved),
              let mineWritten = try? CheckpointEncoder.encode(mine), let theirsWritten = try? CheckpointEncoder.encode(theirs),
              mineWritten == theirsWritten
        else { fatalError("the checkpoint reader read a snapshot otherwise than JSONDecoder") }
    }
    for journal in [given, journal] {
        _ = Journal.reading(of: journal)
        _ = Journal.highestNumbering(journal)
        let data = snapshot.isEmpty ? nil : snapshot
        _ = GameSession.salvageNumbering(data)
        if var game = try? GameSession.restore(data, journal: journal, file: file) {
            // What a restored game is asked first: its state, its next push, its checkpoint.
            _ = game.state
            _ = game.nextLaneOutput
            _ = try? game.encoded()
            game.tick(now: game.now.addingTimeInterval(60))
        }
        _ = try? GameSession.restore(
            data, journal: journal, file: file,
            lanes: [PlatformLane.Options(renderer: .init(), policy: .standard), .android(beside: .init())])
    }
    return 0
}
