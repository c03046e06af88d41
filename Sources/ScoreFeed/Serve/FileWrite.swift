import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// `write(2)` of a whole buffer: the one loop the checkpoints, the journals and the JSON lines
/// sink share, retried after a signal and after a short write, so a caller sees either every
/// byte written or the system's error.
enum FileWrite {
    /// Writes `bytes` to `descriptor`; returns how many went in (all of them unless `failure`
    /// is set) and the `errno` that stopped it (0: none).
    static func all(_ bytes: UnsafeRawBufferPointer, to descriptor: Int32) -> (written: Int, failure: Int32) {
        var written = 0
        while written < bytes.count {
            #if canImport(Glibc)
            let n = Glibc.write(descriptor, bytes.baseAddress! + written, bytes.count - written)
            #elseif canImport(Musl)
            let n = Musl.write(descriptor, bytes.baseAddress! + written, bytes.count - written)
            #else
            let n = Darwin.write(descriptor, bytes.baseAddress! + written, bytes.count - written)
            #endif
            if n >= 0 {
                written += n
            } else if errno != EINTR {
                return (written, errno)
            }
        }
        return (written, 0)
    }
}
