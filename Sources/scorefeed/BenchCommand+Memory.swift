import Foundation
#if canImport(Glibc)
import Glibc
#endif

extension BenchCommand {
    /// Peak resident memory, in KB, from /proc/self/status (Linux; 0 elsewhere).
    static func peakRSS() -> Int { status("VmHWM:") }
    /// Anonymous resident memory (the heap, not the mapped code and libraries), in KB.
    static func anonymousRSS() -> Int { status("RssAnon:") }

    static func status(_ key: String) -> Int {
        guard let text = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return 0 }
        for line in text.split(separator: "\n") where line.hasPrefix(key) {
            return Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "0") ?? 0
        }
        return 0
    }

    /// Gives freed heap memory back to the system (glibc's `malloc_trim`), so that the resident
    /// set measures memory in use rather than what the allocator keeps cached.
    static func trimMalloc() {
        #if canImport(Glibc)
        typealias Trim = @convention(c) (Int) -> Int32
        if let handle = dlopen(nil, RTLD_NOW), let symbol = dlsym(handle, "malloc_trim") {
            _ = unsafeBitCast(symbol, to: Trim.self)(0)
        }
        #endif
    }

    /// The 1-minute load average (Linux), to read timings against: other processes on the
    /// machine slow a benchmark down.
    static func loadAverage() -> String {
        guard let text = try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8) else { return "?" }
        return String(text.split(separator: " ").first ?? "?")
    }
}
