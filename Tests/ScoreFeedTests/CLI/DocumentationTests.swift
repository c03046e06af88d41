import Foundation
import Testing

/// The manual (`Sources/ScoreFeed/ScoreFeed.docc`) converts with the toolchain's `docc` and
/// `--warnings-as-errors`, so every symbol link in it, and in the public API's doc comments,
/// names something that exists.
///
/// No `swift build` here (`swift test` holds the build directory's lock): the symbol graphs of
/// `ScoreFeed` and `ScoreFeedModel` are extracted with `swift-symbolgraph-extract` from the
/// modules the test run already built, found beside the test executable (`…/debug/Modules`).
@Suite("documentation: the DocC catalog")
struct DocumentationTests {
    /// `docc` on the PATH, if any.
    static let docc = ToolRun.onPath("docc")
    /// `swift-symbolgraph-extract` beside `docc` (the toolchain's), else on the PATH.
    static let extractor: URL? = docc.map { $0.deletingLastPathComponent().appendingPathComponent("swift-symbolgraph-extract") }
        .flatMap { FileManager.default.isExecutableFile(atPath: $0.path) ? $0 : nil } ?? ToolRun.onPath("swift-symbolgraph-extract")

    static let packageRoot = Make.packageRoot

    static let catalog = packageRoot.appendingPathComponent("Sources/ScoreFeed/ScoreFeed.docc")

    /// The folder that holds the built `ScoreFeed.swiftmodule`: `Modules` beside the test
    /// executable (or in a folder above it, as in a macOS test bundle), else under `.build/debug`.
    static let modules: URL? = {
        var candidates: [URL] = []
        var folder = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
        for _ in 0..<4 {
            candidates += [folder.appendingPathComponent("Modules"), folder]
            folder.deleteLastPathComponent()
        }
        candidates += [packageRoot.appendingPathComponent(".build/debug/Modules"), packageRoot.appendingPathComponent(".build/debug")]
        return candidates.first {
            FileManager.default.fileExists(atPath: $0.appendingPathComponent("ScoreFeed.swiftmodule").path)
                && FileManager.default.fileExists(atPath: $0.appendingPathComponent("ScoreFeedModel.swiftmodule").path)
        }
    }()

    /// The target the modules were built for, from the build folder's name
    /// (`.build/x86_64-unknown-linux-gnu/debug/Modules`), with the package's lowest macOS on Darwin.
    static func target(of modules: URL) -> String {
        var folder = modules
        while folder.lastPathComponent != "debug" && folder.lastPathComponent != "release" && folder.path != "/" {
            folder.deleteLastPathComponent()
        }
        var triple = folder.deletingLastPathComponent().lastPathComponent
        if triple == ".build" {
            #if arch(arm64)
            triple = "arm64"
            #else
            triple = "x86_64"
            #endif
            #if os(macOS)
            triple += "-apple-macosx"
            #else
            triple += "-unknown-linux-gnu"
            #endif
        }
        #if os(macOS)
        if triple.hasSuffix("macosx") { triple += "14.0" }
        #endif
        return triple
    }

    @Test(
        "the catalog converts with no warning, every symbol link resolved",
        .enabled(if: DocumentationTests.docc != nil, "docc is not on the PATH (the Swift toolchain ships it in usr/bin): the DocC check is skipped"),
        .enabled(if: DocumentationTests.extractor != nil, "swift-symbolgraph-extract is not beside docc nor on the PATH: the DocC check is skipped"),
        .enabled(if: DocumentationTests.modules != nil, "no built ScoreFeed.swiftmodule beside the test executable: the DocC check is skipped"))
    func catalogConvertsWithoutWarnings() throws {
        let docc = try #require(Self.docc), extractor = try #require(Self.extractor), modules = try #require(Self.modules)
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("scorefeed-docc-\(UUID().uuidString)")
        let graphs = work.appendingPathComponent("symbol-graphs"), archive = work.appendingPathComponent("ScoreFeed.doccarchive")
        try FileManager.default.createDirectory(at: graphs, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }

        var sdk: [String] = []
        if let root = ProcessInfo.processInfo.environment["SDKROOT"], !root.isEmpty { sdk = ["-sdk", root] }
        for module in ["ScoreFeed", "ScoreFeedModel"] {
            let extract = try Self.run(extractor, [
                "-module-name", module, "-I", modules.path, "-target", Self.target(of: modules),
                "-minimum-access-level", "public", "-output-dir", graphs.path,
            ] + sdk, in: work)
            try #require(extract.status == 0, "swift-symbolgraph-extract of \(module) failed (exit \(extract.status)):\n\(extract.output)")
        }

        let convert = try Self.run(docc, [
            "convert", Self.catalog.path, "--additional-symbol-graph-dir", graphs.path,
            "--output-path", archive.path, "--warnings-as-errors",
        ], in: work)
        let diagnostics = convert.output.split(separator: "\n", omittingEmptySubsequences: false)
            .filter { $0.contains("warning:") || $0.contains("error:") }
        #expect(
            convert.status == 0 && diagnostics.isEmpty,
            "docc convert of \(Self.catalog.lastPathComponent) found problems (exit \(convert.status)):\n\(Self.head(convert.output))")
    }

    /// The first 300 lines of `text`: enough to name every broken link.
    static func head(_ text: String) -> String {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        return lines.prefix(300).joined(separator: "\n") + (lines.count > 300 ? "\n… (\(lines.count - 300) more lines)" : "")
    }

    /// Runs `tool` with `arguments` in `folder`; returns its exit status and its standard output
    /// and error together.
    static func run(_ tool: URL, _ arguments: [String], in folder: URL) throws -> (status: Int32, output: String) {
        let run = try ToolRun.run(tool, arguments, in: folder)
        return (run.status, run.output + run.errors)
    }
}
