// libFuzzer target: any bytes through the format-detecting reader (fixture, liveData, stats
// v2, v3). Must never crash, hang or trap; errors are fine.
import Foundation

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let data = Data(bytes: start, count: count)
    _ = try? FeedReader.decode(data, file: "fuzz")
    return 0
}
