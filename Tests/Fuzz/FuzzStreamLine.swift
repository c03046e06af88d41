// libFuzzer target: the `serve` input stream, split and parsed as serve's reader does it (each
// line parsed where it lies in the buffer), and each line copied out and parsed from its `Data`.
import Foundation

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    var inPlace = LineReader.Splitter(limit: 4096)
    inPlace.feed(UnsafeRawBufferPointer(start: start, count: count)) { _ = StreamLine($0, source: "fuzz") }
    inPlace.finish { _ = StreamLine($0, source: "fuzz") }
    var splitter = LineReader.Splitter(limit: 4096)
    splitter.feed(UnsafeRawBufferPointer(start: start, count: count)) { found in
        if case .line(let line, let number) = found { _ = try? StreamLine.parse(Data(line), number: number) }
    }
    return 0
}
