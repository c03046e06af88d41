// libFuzzer target: one line of the `serve` input stream.
import Foundation

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let data = Data(bytes: start, count: count)
    var splitter = LineReader.Splitter(limit: 4096)
    for case .line(let line, let number) in splitter.feed(ArraySlice(Array(data))) {
        _ = try? StreamLine.parse(line, number: number)
    }
    return 0
}
