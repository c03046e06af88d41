// libFuzzer target: the `serve` input stream, split and parsed as serve's reader does it (each
// line parsed where it lies in the buffer), and through the copying API.
import Foundation

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    var inPlace = LineReader.Splitter(limit: 4096)
    inPlace.feed(UnsafeRawBufferPointer(start: start, count: count)) { _ = StreamLine($0, source: "fuzz") }
    inPlace.finish { _ = StreamLine($0, source: "fuzz") }
    let data = Data(bytes: start, count: count)
    var splitter = LineReader.Splitter(limit: 4096)
    for case .line(let line, let number) in splitter.feed(ArraySlice(Array(data))) {
        _ = try? StreamLine.parse(line, number: number)
    }
    return 0
}
