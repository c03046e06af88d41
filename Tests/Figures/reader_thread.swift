// What `serve`'s reader thread does, alone: standard input split into lines and each line parsed
// (`LineReader.parsedBatches`, as ServeCommand wires it), the batches counted and
// dropped. Prints the lines, headers, events and bad lines, the wall time and the process's CPU
// time (the reader thread's, plus a consumer that only counts). Not part of the package; built and
// run by Tests/Figures/reader_thread.sh. With `--dump`, prints every parsed line instead (its
// number and its value or error message), to compare two builds' parses byte for byte.
import Foundation
import ScoreFeed

let dump = CommandLine.arguments.contains("--dump")

func cpuSeconds() -> Double {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    func seconds(_ t: timeval) -> Double { Double(t.tv_sec) + Double(t.tv_usec) / 1e6 }
    return seconds(usage.ru_utime) + seconds(usage.ru_stime)
}

/// Line `number` (every line of the input is one value, in order) as the reader parsed it.
func describe(_ line: StreamLine, number: Int) -> String {
    switch line {
    case .event(let game, let event, _):
        // Dates print to the second: the time's and the clock's bits are printed too.
        "\(number) event \(game) \(event) \(event.time.timeIntervalSince1970.bitPattern) \(event.clock.bitPattern)"
    case .header(let attributes, let channel):
        "\(number) header \(attributes) \(channel as Any)"
    case .blank:
        "\(number) empty"
    case .bad(let error):
        "\(number) error \(error.code) \(error.location) \(error)"
    }
}

/// What the consumer saw (touched by one task only, read after it is done).
final class Tally: @unchecked Sendable {
    var lines = 0, headers = 0, events = 0, bad = 0
}

// A synchronous main that waits for the consuming task, so valgrind can count it too.
let start = ContinuousClock.now
let done = DispatchSemaphore(value: 0)
let tally = Tally()
Task {
    for await batch in LineReader(source: .standardInput).parsedBatches(source: "stdin") {
        for line in batch {
            tally.lines += 1
            switch line {
            case .event: tally.events += 1
            case .header: tally.headers += 1
            case .blank: break
            case .bad: tally.bad += 1
            }
            if dump { print(describe(line, number: tally.lines)) }
        }
    }
    done.signal()
}
done.wait()
let wall = ContinuousClock.now - start
let message = "\(tally.lines) lines, \(tally.headers) headers, \(tally.events) events, \(tally.bad) bad; "
    + "wall \(wall), CPU \(String(format: "%.3f", cpuSeconds())) s"
if dump {
    FileHandle.standardError.write(Data((message + "\n").utf8))
} else {
    print(message)
}
