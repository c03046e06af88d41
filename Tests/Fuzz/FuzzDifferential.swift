// libFuzzer target: the byte reader against JSONDecoder. The input is read as `serve` lines and
// as a fixture file, each both ways; any difference in the events, the header or the error
// (code, message, location) is a crash, and so is a fixture the byte reader alone takes apart.
import Foundation

/// What one way of parsing made of a line, comparable.
enum LineOutcome: Equatable {
    case header(GameAttributes, channel: String?)
    case event(String, GameEvent)
    case error(ScoreFeedError)

    init(_ line: Data, number: Int, _ decoding: JSONDecoding) {
        do {
            switch try StreamLine.parse(line, number: number, source: "fuzz", decoding: decoding) {
            case .header(let attributes, let channel): self = .header(attributes, channel: channel)
            case .event(let game, let event, _): self = .event(game, event)
            case .bad(let error): self = .error(error)
            case .blank: self = .error(ScoreFeedError(.invalidValue, "parse gave an empty line"))
            }
        } catch {
            self = .error(error)
        }
    }
}

/// What one way of decoding made of a fixture file, as text (every field of the document).
func documentOutcome(_ data: Data, _ decoding: JSONDecoding) -> String {
    do {
        let d = try FixtureFormat.decode(data, file: "fuzz", decoding: decoding)
        return "\(d.attributes) \(d.events.map { "\($0) \($0.time.timeIntervalSince1970.bitPattern)" }) \(d.positions) \(d.rejected) \(String(describing: d.finalScore)) \(String(describing: d.scheduledStart?.timeIntervalSince1970.bitPattern)) \(String(describing: d.actionCount))"
    } catch {
        return "error \(error)"
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let data = Data(bytes: start, count: count)
    var splitter = LineReader.Splitter(limit: 4096)
    var lines: [(line: Data, number: Int)] = []
    func keep(_ found: LineReader.Found) {
        if case .line(let line, let number) = found, !line.isEmpty { lines.append((Data(line), number)) }
    }
    splitter.feed(UnsafeRawBufferPointer(start: start, count: count), keep)
    splitter.finish(keep)
    for (line, number) in lines {
        let bytes = LineOutcome(line, number: number, .bytes)
        let reference = LineOutcome(line, number: number, .foundation)
        if bytes != reference {
            fatalError("the readers differ on line \(number) \(String(decoding: line, as: UTF8.self)):\n bytes: \(bytes)\n reference: \(reference)")
        }
    }
    let bytes = documentOutcome(data, .bytes), reference = documentOutcome(data, .foundation)
    if bytes != reference {
        fatalError("the readers differ on the fixture:\n bytes: \(bytes)\n reference: \(reference)")
    }
    return 0
}
