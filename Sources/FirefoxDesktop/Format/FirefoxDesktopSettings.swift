import Archive
import FileSystemKit
import SessionFormats
import SessionModel

/// What a Firefox desktop profile says, outside its session files, about restoring: its
/// preferences and whether the crash monitor saw the last run finish writing its final session.
public struct FirefoxDesktopSettings: Sendable, Equatable {
    /// prefs.js as read; nil when the profile has none (Firefox then uses its defaults).
    public var prefs: FirefoxPrefs?
    /// `sessionCheckpoints.json`'s `sessionstore-final-state-write-complete`: true after a clean
    /// shutdown, false after a crash; nil when the file is missing or does not parse.
    public var finalStateWritten: Bool?

    public init(prefs: FirefoxPrefs? = nil, finalStateWritten: Bool? = nil) {
        self.prefs = prefs
        self.finalStateWritten = finalStateWritten
    }

    /// Reads prefs.js and sessionCheckpoints.json of the profile at `profile` of `tree`.
    public static func read(tree: ReadableTree, profile: String) -> FirefoxDesktopSettings {
        var settings = FirefoxDesktopSettings()
        if let bytes = try? tree.read(joinPath(profile, FirefoxDesktopLayout.prefsFile)) { settings.prefs = FirefoxPrefs.parse(bytes) }
        if let bytes = try? tree.read(joinPath(profile, FirefoxDesktopLayout.checkpointsFile)),
            let value = try? JSONParser.parse(bytes, file: FirefoxDesktopLayout.checkpointsFile, maxDepth: nil), case .object = value
        {
            // `!checkpoints["sessionstore-final-state-write-complete"]`: any truthy value is a clean end.
            settings.finalStateWritten =
                SessionstoreDecoder.member(value, "sessionstore-final-state-write-complete")?.isTruthyInJavaScript ?? false
        }
        return settings
    }

    /// The preferences Firefox goes by: prefs.js's, or its defaults.
    public var effectivePrefs: FirefoxPrefs { prefs ?? FirefoxPrefs() }
}
