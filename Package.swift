// swift-tools-version:6.0
import PackageDescription

/// Debug builds compile the package's own code optimized (`-O`) too, its tests included:
/// `swift test`'s heaviest suites run whole simulated live days, which take about a third of the
/// time so, and many checks read every record of the real games (building the tests takes longer
/// so). SwiftPM refuses unsafe flags in a package that others depend on by version, so they are
/// left out where this package is checked out as a dependency (SwiftPM's and Xcode's `checkouts`,
/// a registry's downloads); a dependency by path keeps them. Setting `SCOREFEED_ONONE` (to
/// anything) leaves them out, for a debugger.
let optimizedInDebug: [SwiftSetting] = {
    let directory = Context.packageDirectory
    let isDependency = directory.contains("/checkouts/") || directory.contains("/registry/")
    guard !isDependency, Context.environment["SCOREFEED_ONONE"] == nil else { return [] }
    return [.unsafeFlags(["-O"], .when(configuration: .debug))]
}()

let package = Package(
    name: "ScoreFeed",
    platforms: [.macOS(.v14), .iOS(.v17)],
    products: [
        .library(name: "ScoreFeedModel", targets: ["ScoreFeedModel"]),
        .library(name: "ScoreFeed", targets: ["ScoreFeed"]),
        .executable(name: "scorefeed", targets: ["scorefeed"]),
    ],
    targets: [
        // Shared with the iOS widget extension: Foundation only, no engine code.
        .target(name: "ScoreFeedModel", swiftSettings: optimizedInDebug),
        .target(name: "ScoreFeed", dependencies: ["ScoreFeedModel"], swiftSettings: optimizedInDebug),
        .executableTarget(name: "scorefeed", dependencies: ["ScoreFeed"], swiftSettings: optimizedInDebug),
        .testTarget(name: "ScoreFeedModelTests", dependencies: ["ScoreFeedModel"], swiftSettings: optimizedInDebug),
        .testTarget(
            name: "ScoreFeedTests",
            dependencies: ["ScoreFeed", "ScoreFeedModel", "scorefeed"],
            exclude: ["Golden"],
            swiftSettings: optimizedInDebug
        ),
    ],
    swiftLanguageModes: [.v6]
)
