import Foundation
import Testing

/// `Package.swift` compiles the package's code with `-O` in debug builds through unsafe flags,
/// which SwiftPM refuses in a package depended on by version: the manifest, evaluated where a
/// dependency is checked out (SwiftPM's and Xcode's `checkouts`, a registry's downloads), must
/// state none, so ScoreFeed stays usable as a library. Evaluated by the toolchain's own
/// `swift package dump-package` on a copy of the manifest in each such place.
@Suite(
    "Package.swift: unsafe flags only where the package is the one being built",
    .enabled(if: ToolRun.onPath("swift") != nil, "swift is not on the PATH: the manifest cannot be evaluated"))
struct PackageManifestTests {
    @Test(arguments: [
        ("ScoreFeed", nil, true),
        ("ScoreFeed", "1", false),
        ("App/.build/checkouts/ScoreFeed", nil, false),
        ("DerivedData/App-abc/SourcePackages/checkouts/ScoreFeed", nil, false),
        ("App/.build/registry/downloads/scorefeed/scorefeed/1.0.0", nil, false),
    ] as [(String, String?, Bool)])
    func unsafeFlagsOnlyWhereThePackageIsBuiltItself(_ place: String, _ onone: String?, _ optimized: Bool) throws {
        let swift = try #require(ToolRun.onPath("swift"))
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("scorefeed-manifest-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let folder = root.appendingPathComponent(place)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            at: Make.packageRoot.appendingPathComponent("Package.swift"), to: folder.appendingPathComponent("Package.swift"))

        var environment = ProcessInfo.processInfo.environment
        environment["SCOREFEED_ONONE"] = onone
        let dump = try ToolRun.run(swift, ["package", "dump-package"], in: folder, environment: environment)
        #expect(dump.status == 0, "\(dump.errors.prefix(2000))")

        let manifest = try #require(
            try JSONSerialization.jsonObject(with: Data(dump.output.utf8)) as? [String: Any], "\(dump.output.prefix(2000))")
        let targets = try #require(manifest["targets"] as? [[String: Any]])
        // The targets whose settings hold an unsafe flag.
        let flagged = targets.filter { target in
            ((target["settings"] as? [[String: Any]]) ?? []).contains { setting in
                (setting["kind"] as? [String: Any])?["unsafeFlags"] != nil
            }
        }.compactMap { $0["name"] as? String }.sorted()
        #expect(flagged == (optimized ? ["ScoreFeed", "ScoreFeedModel", "ScoreFeedModelTests", "ScoreFeedTests", "scorefeed"] : []), "\(place), SCOREFEED_ONONE \(onone ?? "unset")")
    }
}
