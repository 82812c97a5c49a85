import Foundation

/// The repository the tests run from, for its fixtures.
public enum Repository {
    /// The repository's root directory.
    public static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The absolute path of `relative` (say `Fixtures/firefox-ios`) in the repository.
    public static func path(_ relative: String) -> String { root.appendingPathComponent(relative).path }
}
