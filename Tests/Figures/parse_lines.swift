// Times `StreamLine.parse` alone on every line of a stream (3 runs), the figure to set beside
// Tests/Figures/json_loads.py. Not part of the package; build it against a release build's objects:
//
//   swift build -c release
//   swiftc -O -I .build/release/Modules Tests/Figures/parse_lines.swift \
//       .build/release/ScoreFeed.build/*.o .build/release/ScoreFeedModel.build/*.o -o /tmp/parse-lines
//   /tmp/parse-lines /tmp/g120.jsonl
import Foundation
import ScoreFeed
let data = try! Data(contentsOf: URL(fileURLWithPath: CommandLine.arguments[1]))
let lines = data.split(separator: UInt8(ascii: "\n")).map { Data($0) }
for run in 0..<3 {
    let start = ContinuousClock.now
    var events = 0
    for (i, line) in lines.enumerated() {
        if case .event = try! StreamLine.parse(line, number: i + 1) { events += 1 }
    }
    print("run \(run): \(lines.count) lines, \(events) events parsed in \(ContinuousClock.now - start)")
}
