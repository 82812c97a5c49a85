// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "sessionctl",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "sessionctl", targets: ["sessionctl"]),
        .library(name: "SessionModel", targets: ["SessionModel"]),
        .library(name: "SessionFormats", targets: ["SessionFormats"]),
        .library(name: "SessionStore", targets: ["SessionStore"]),
        .library(name: "SessionForensics", targets: ["SessionForensics"]),
        .library(name: "Archive", targets: ["Archive"]),
        .library(name: "CrashSimulator", targets: ["CrashSimulator"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-protobuf", from: "1.39.0"),
    ],
    targets: [
        .target(name: "SessionModel"),
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"]), .brew(["zlib"])]),
        // SHA-256 with the x86 SHA extensions, used by Archive's SHA256 where the processor has them.
        .target(name: "CSHA256"),
        .target(name: "Archive", dependencies: ["CZlib", "CSHA256"]),
        .target(
            name: "SessionFormats",
            dependencies: [
                "SessionModel", "Archive",
                .product(name: "SwiftProtobuf", package: "swift-protobuf"),
            ]
        ),
        .target(name: "SessionStore", dependencies: ["SessionFormats", "SessionModel", "Archive"]),
        .target(name: "SessionForensics", dependencies: ["SessionStore", "SessionFormats", "SessionModel", "Archive"]),
        .target(name: "CrashSimulator", dependencies: ["SessionStore", "SessionFormats", "SessionModel"]),
        .executableTarget(
            name: "sessionctl",
            dependencies: [
                "SessionModel", "SessionFormats", "SessionStore", "SessionForensics", "Archive", "CrashSimulator",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // Helpers shared by the test targets (a seeded random number generator).
        .target(name: "TestSupport", path: "Tests/TestSupport"),
        .testTarget(name: "SessionModelTests", dependencies: ["SessionModel"]),
        .testTarget(name: "ArchiveTests", dependencies: ["Archive", "CZlib"]),
        .testTarget(name: "SessionFormatsTests", dependencies: ["SessionFormats", "Archive", "TestSupport"]),
        .testTarget(name: "SessionStoreTests", dependencies: ["SessionStore", "SessionFormats", "Archive"]),
        .testTarget(name: "SessionForensicsTests", dependencies: ["SessionForensics", "SessionStore", "SessionFormats", "SessionModel", "Archive", "TestSupport"]),
        .testTarget(name: "CrashSimulatorTests", dependencies: ["CrashSimulator", "SessionStore", "SessionFormats", "SessionModel"]),
        .testTarget(name: "CLITests", dependencies: ["sessionctl", "SessionFormats", "Archive", "TestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
