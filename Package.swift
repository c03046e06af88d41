// swift-tools-version:6.0
import PackageDescription

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
        .target(name: "ScoreFeedModel"),
        .target(name: "ScoreFeed", dependencies: ["ScoreFeedModel"]),
        .executableTarget(name: "scorefeed", dependencies: ["ScoreFeed"]),
        .testTarget(name: "ScoreFeedModelTests", dependencies: ["ScoreFeedModel"]),
        .testTarget(
            name: "ScoreFeedTests",
            dependencies: ["ScoreFeed", "ScoreFeedModel", "scorefeed"],
            exclude: ["Golden"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
