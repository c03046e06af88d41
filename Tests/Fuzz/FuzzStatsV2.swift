// libFuzzer target: the StatsV2Format decoder alone.
import Foundation

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    _ = try? StatsV2Format.decode(Data(bytes: start, count: count), file: "fuzz")
    return 0
}
