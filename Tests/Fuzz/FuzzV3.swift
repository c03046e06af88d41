// libFuzzer target: the PlayByPlayV3Format decoder alone.
import Foundation

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    _ = try? PlayByPlayV3Format.decode(Data(bytes: start, count: count), file: "fuzz")
    return 0
}
