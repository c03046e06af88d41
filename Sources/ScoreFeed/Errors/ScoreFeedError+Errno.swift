import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

extension ScoreFeedError {
    /// The system's text for `errno` value `code` and the number: "No space left on device
    /// (errno 28)", so a message says what the disk did in words an operator searches for.
    public static func errnoText(_ code: Int32) -> String {
        "\(String(cString: strerror(code))) (errno \(code))"
    }
}
