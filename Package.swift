// swift-tools-version:6.0
import PackageDescription

// The tests' own code is compiled unoptimised even in an optimised build (CI's): the libraries
// they exercise are optimised all the same, and compiling the test targets takes a minute less
// (measured on a clean clone: 163 s against 104 s) for a suite that runs as fast (145 s).
let testSettings: [SwiftSetting] = [.unsafeFlags(["-Onone"], .when(configuration: .release))]

let package = Package(
    name: "sessionctl",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "sessionctl", targets: ["sessionctl"]),
        .library(name: "SessionModel", targets: ["SessionModel"]),
        .library(name: "FileSystemKit", targets: ["FileSystemKit"]),
        .library(name: "SessionFormats", targets: ["SessionFormats"]),
        .library(name: "SessionStore", targets: ["SessionStore"]),
        .library(name: "SessionForensics", targets: ["SessionForensics"]),
        .library(name: "Archive", targets: ["Archive"]),
        .library(name: "CrashSimulator", targets: ["CrashSimulator"]),
        .library(name: "ChromeIOS", targets: ["ChromeIOS"]),
        .library(name: "FirefoxIOS", targets: ["FirefoxIOS"]),
        .library(name: "FirefoxDesktop", targets: ["FirefoxDesktop"]),
        .library(name: "ChromiumDesktop", targets: ["ChromiumDesktop"]),
        .library(name: "SafariIOS", targets: ["SafariIOS"]),
        .library(name: "BrowserRegistry", targets: ["BrowserRegistry"])
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-protobuf", from: "1.39.0"),
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.3")
    ],
    targets: [
        .target(name: "SessionModel"),
        // sync_file_range, which Swift's Glibc module leaves out (a hint to start writing back early).
        .target(name: "CFileHints"),
        // Mapping a file with a guard against its truncation (a SIGBUS handler, which must be C).
        .target(name: "CFileMapping"),
        // The one file-system interface everything reads and writes through, and its POSIX implementation.
        .target(name: "FileSystemKit", dependencies: ["CFileHints", "CFileMapping"]),
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"]), .brew(["zlib"])]),
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"]), .brew(["sqlite"])]),
        .systemLibrary(name: "CLZ4", pkgConfig: "liblz4", providers: [.apt(["liblz4-dev"]), .brew(["lz4"])]),
        .target(name: "Archive", dependencies: ["CZlib", "CLZ4", .product(name: "Crypto", package: "swift-crypto")]),
        .target(
            name: "SessionFormats",
            dependencies: [
                "SessionModel", "Archive", "FileSystemKit",
                .product(name: "SwiftProtobuf", package: "swift-protobuf")
            ]
        ),
        .target(name: "SessionStore", dependencies: ["SessionFormats", "SessionModel", "Archive", "FileSystemKit"]),
        .target(name: "SessionForensics", dependencies: ["SessionStore", "SessionFormats", "SessionModel", "Archive", "FileSystemKit"]),
        .target(
            name: "CrashSimulator",
            dependencies: ["Archive", "SessionForensics", "SessionStore", "SessionFormats", "SessionModel", "FileSystemKit"]),
        // The one list of the browsers: every browser's family, rulebook and store model, which
        // the command line registers at its start (the shared targets name no browser).
        // Chrome for iOS: its rules (what Chrome does on load with each problem).
        .target(
            name: "ChromeIOS",
            dependencies: ["SessionModel", "FileSystemKit", "Archive", "SessionFormats", "SessionStore", "SessionForensics"]),
        // Firefox for iOS: its window files and legacy tab archives, rules, repair and migration;
        // and the model of its save protocol that crash-test explores.
        .target(
            name: "FirefoxIOS",
            dependencies: ["SessionModel", "FileSystemKit", "Archive", "SessionFormats", "SessionStore", "SessionForensics"]),
        .target(
            name: "FirefoxIOSStore",
            dependencies: ["SessionModel", "FileSystemKit", "Archive", "SessionFormats", "SessionStore", "CrashSimulator", "FirefoxIOS"]
        ),
        // Firefox desktop: its session files (mozLz4 JSON), load order, rules and repair; and the
        // model of its writer that crash-test explores.
        .target(
            name: "FirefoxDesktop",
            dependencies: ["SessionModel", "FileSystemKit", "Archive", "SessionFormats", "SessionStore", "SessionForensics"]),
        .target(
            name: "FirefoxDesktopStore",
            dependencies: ["SessionModel", "FileSystemKit", "Archive", "SessionFormats", "SessionStore", "CrashSimulator", "FirefoxDesktop"]
        ),
        // Chromium desktop (Chrome, Edge, Brave, Vivaldi, Opera): its SNSS session files, products,
        // rules and repair; and the model of its session service that crash-test explores.
        .target(
            name: "ChromiumDesktop",
            dependencies: ["SessionModel", "FileSystemKit", "Archive", "SessionFormats", "SessionStore", "SessionForensics"]),
        .target(
            name: "ChromiumDesktopStore",
            dependencies: [
                "SessionModel", "FileSystemKit", "Archive", "SessionFormats", "SessionStore", "CrashSimulator", "ChromiumDesktop"
            ]),
        // Safari for iOS: its BrowserState.db, read through the system's SQLite on a private copy,
        // each tab's session state (Apple's LZ4 stream), rules.
        .target(
            name: "SafariIOS",
            dependencies: ["CSQLite", "CLZ4", "SessionModel", "FileSystemKit", "SessionFormats", "SessionForensics"]),
        .target(
            name: "BrowserRegistry",
            dependencies: [
                "SessionFormats", "SessionForensics", "CrashSimulator", "ChromeIOS", "FirefoxIOS", "FirefoxIOSStore", "FirefoxDesktop",
                "FirefoxDesktopStore", "ChromiumDesktop", "ChromiumDesktopStore", "SafariIOS"
            ]),
        .executableTarget(
            name: "sessionctl",
            dependencies: [
                "SessionModel", "SessionFormats", "SessionStore", "SessionForensics", "Archive", "CrashSimulator", "FileSystemKit",
                "BrowserRegistry",
                .product(name: "ArgumentParser", package: "swift-argument-parser")
            ]
        ),
        // Helpers shared by the test targets (a seeded random number generator).
        .target(
            name: "TestSupport", dependencies: ["BrowserRegistry", "CrashSimulator"], path: "Tests/TestSupport", swiftSettings: testSettings
        ),
        .testTarget(name: "SessionModelTests", dependencies: ["SessionModel"], swiftSettings: testSettings),
        .testTarget(name: "FileSystemKitTests", dependencies: ["FileSystemKit", "TestSupport"], swiftSettings: testSettings),
        .testTarget(name: "ArchiveTests", dependencies: ["Archive", "CZlib"], swiftSettings: testSettings),
        .testTarget(
            name: "SessionFormatsTests", dependencies: ["FileSystemKit", "SessionFormats", "Archive", "TestSupport"],
            swiftSettings: testSettings),
        .testTarget(
            name: "SessionStoreTests", dependencies: ["FileSystemKit", "SessionStore", "SessionFormats", "Archive", "TestSupport"],
            swiftSettings: testSettings),
        .testTarget(
            name: "SessionForensicsTests",
            dependencies: [
                "FileSystemKit", "SessionForensics", "ChromeIOS", "SessionStore", "SessionFormats", "SessionModel", "Archive", "TestSupport"
            ], swiftSettings: testSettings),
        .testTarget(
            name: "CrashSimulatorTests",
            dependencies: [
                "FileSystemKit", "CrashSimulator", "SessionForensics", "SessionStore", "SessionFormats", "SessionModel", "TestSupport"
            ], swiftSettings: testSettings
        ),
        .testTarget(
            name: "ChromeIOSTests",
            dependencies: [
                "ChromeIOS", "FileSystemKit", "SessionForensics", "SessionStore", "SessionFormats", "SessionModel", "Archive", "TestSupport"
            ], swiftSettings: testSettings),
        .testTarget(
            name: "FirefoxIOSTests",
            dependencies: [
                "FirefoxIOS", "FirefoxIOSStore", "FileSystemKit", "CrashSimulator", "SessionForensics", "SessionStore", "SessionFormats",
                "SessionModel", "Archive", "TestSupport"
            ], swiftSettings: testSettings),
        .testTarget(
            name: "FirefoxDesktopTests",
            dependencies: [
                "FirefoxDesktop", "FirefoxDesktopStore", "FileSystemKit", "CrashSimulator", "SessionForensics", "SessionStore",
                "SessionFormats",
                "SessionModel", "Archive", "TestSupport"
            ], swiftSettings: testSettings),
        .testTarget(
            name: "ChromiumDesktopTests",
            dependencies: [
                "ChromiumDesktop", "ChromiumDesktopStore", "FileSystemKit", "CrashSimulator", "SessionForensics", "SessionStore",
                "SessionFormats", "SessionModel", "Archive", "TestSupport"
            ], swiftSettings: testSettings),
        .testTarget(
            name: "SafariIOSTests",
            dependencies: ["SafariIOS", "CSQLite", "FileSystemKit", "SessionForensics", "SessionFormats", "SessionModel", "TestSupport"],
            swiftSettings: testSettings),
        .testTarget(
            name: "CLITests", dependencies: ["FileSystemKit", "sessionctl", "SessionFormats", "Archive", "TestSupport"],
            swiftSettings: testSettings)
    ],
    swiftLanguageModes: [.v6]
)
