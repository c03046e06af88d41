// libFuzzer target: the LiveDataFormat decoder alone.
import Foundation

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    _ = try? LiveDataFormat.decode(Data(bytes: start, count: count), file: "fuzz")
    return 0
}
