import Foundation
import Synchronization
import Testing

/// What some tests need beyond the package: `../shared/nba-pbp` (``NBAFiles``), python3 for the
/// test servers of `Tests/Support` (``Python3``), the built `scorefeed` executable
/// (``ScoreFeedProcess``), the wire tests' venv (``APNsStandIn``). Their `available` is the
/// condition of `.enabled(if:)`; the first test that finds one absent says so here, once per run,
/// on standard error (what is absent and what skips), and swift-testing marks each test it
/// skips with the short reason.
enum Needs {
    private static let said = Mutex<Set<String>>([])

    /// `present`; when false, writes `note: <absent>` on standard error the first time only.
    static func check(_ present: Bool, _ absent: String) -> Bool {
        guard !present else { return true }
        if said.withLock({ $0.insert(absent).inserted }) {
            FileHandle.standardError.write(Data("note: \(absent)\n".utf8))
        }
        return false
    }
}

/// python3 on the PATH, which runs the test servers in `Tests/Support` (standard library only).
enum Python3 {
    /// Its path, if any.
    static let url = ToolRun.onPath("python3")

    /// Whether it is there (said once when it is not).
    static var available: Bool {
        Needs.check(url != nil, "python3 is not on the PATH: the tests that run the Python test servers of Tests/Support skip")
    }

    static let absentReason: Comment = "python3 is not on the PATH"
}
