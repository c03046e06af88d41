import Foundation
import ScoreFeed
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Keeps a command from writing its output (`--out`, `-o`) over one of the files it reads: the
/// input would be truncated or appended to before, or while, it is read.
enum OutputGuard {
    /// Throws a usage error when `output` names the same file as one of `inputs`. `what` says
    /// what would be written ("push records"). `-` (standard input or output) is never a file.
    static func refuse(_ output: String?, inputs: [String], writing what: String) throws(ScoreFeedError) {
        guard let output, output != "-", !output.isEmpty else { return }
        for input in inputs where input != "-" && sameFile(output, input) {
            throw ScoreFeedError(.usage, "refusing to write \(what) into the input file \(input)")
        }
    }

    /// Whether two paths name one file: the same path once `.`, `..` and symbolic links are
    /// resolved, or the same device and inode (a hard link, a case-insensitive file system).
    static func sameFile(_ a: String, _ b: String) -> Bool {
        if resolved(a) == resolved(b) { return true }
        var first = stat(), second = stat()
        guard stat(a, &first) == 0, stat(b, &second) == 0 else { return false }
        return first.st_dev == second.st_dev && first.st_ino == second.st_ino
    }

    /// The absolute path with `.`, `..` and symbolic links resolved as far as they exist.
    private static func resolved(_ path: String) -> String {
        URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath().path
    }
}
