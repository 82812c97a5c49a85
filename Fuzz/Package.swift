// swift-tools-version:6.0
// The fuzzing package: one libFuzzer binary whose target is chosen by SESSIONCTL_FUZZ_TARGET.
// Built by Fuzz/run with -sanitize=fuzzer,address; not part of the main build.
import PackageDescription

let package = Package(
    name: "SessionFuzz",
    dependencies: [.package(name: "sessionctl", path: "..")],
    targets: [
        .executableTarget(
            name: "SessionFuzz",
            dependencies: [
                .product(name: "SessionFormats", package: "sessionctl"),
                .product(name: "SessionModel", package: "sessionctl"),
                .product(name: "Archive", package: "sessionctl"),
                .product(name: "SessionForensics", package: "sessionctl"),
                .product(name: "CrashSimulator", package: "sessionctl"),
                .product(name: "ChromeIOS", package: "sessionctl"),
                .product(name: "FirefoxIOS", package: "sessionctl"),
                .product(name: "FirefoxDesktop", package: "sessionctl"),
                .product(name: "ChromiumDesktop", package: "sessionctl"),
                .product(name: "SafariIOS", package: "sessionctl"),
                .product(name: "BrowserRegistry", package: "sessionctl")
            ],
            swiftSettings: [.unsafeFlags(["-parse-as-library"])],
            linkerSettings: [.unsafeFlags(["-sanitize=fuzzer,address"])]
        )
    ],
    swiftLanguageModes: [.v6]
)
