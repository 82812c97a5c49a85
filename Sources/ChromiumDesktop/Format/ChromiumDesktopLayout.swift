import Archive
import FileSystemKit
import SessionFormats
import SessionModel

/// The names Chromium desktop gives a profile's session files (docs/chromium-desktop-format.md,
/// "Files and their selection"): `Sessions/<type>_<time>`, the time in microseconds since 1601.
public enum ChromiumDesktopLayout {
    /// The directory of the session files, in the profile directory (since Chrome 85).
    public static let sessionsDirectory = "Sessions"
    /// The preferences file: `profile.exit_type` and `session.restore_on_startup`.
    public static let preferencesFile = "Preferences"
    /// The names of Chrome before 85, in the profile directory itself.
    public static let legacyNames: [String: FileType] = [
        "Current Session": .session, "Last Session": .session, "Current Tabs": .tabs, "Last Tabs": .tabs
    ]

    /// What a session file holds, by the prefix of its name.
    public enum FileType: String, Sendable, Hashable, CaseIterable {
        /// `Session_`: the open windows and tabs.
        case session = "Session"
        /// `Tabs_`: recently closed tabs and windows (the tab-restore service's).
        case tabs = "Tabs"
        /// `Apps_`: app windows, in the session command set.
        case apps = "Apps"

        /// The command table its records are read with.
        public var commands: SNSSCommandSet { self == .tabs ? .tabRestore : .session }
    }

    /// The type and time of a name Chrome counts as a session file (`<type>_<int64>`: split on
    /// `_` with empty parts dropped, exactly two parts, the second an int64), or nil.
    public static func parse(_ name: String) -> (type: FileType, time: Int64)? {
        let parts = name.split(separator: "_", omittingEmptySubsequences: true)
        guard parts.count == 2, let type = FileType(rawValue: String(parts[0])), let time = Int64(parts[1]) else { return nil }
        return (type, time)
    }

    /// The name of a new session file of `type` made at `time` (microseconds since 1601).
    public static func name(_ type: FileType, time: Int64) -> String { "\(type.rawValue)_\(time)" }

    /// The type of a legacy name, or of a `Sessions/` name, when it is one.
    public static func type(ofName name: String) -> FileType? { parse(name)?.type ?? legacyNames[name] }
}

/// What a Chromium desktop profile's `Preferences` says about restoring at launch.
public struct ChromiumDesktopSettings: Sendable, Equatable {
    /// `profile.exit_type`: "Normal", "Crashed" (also while Chrome runs) or "SessionEnded"; nil when absent.
    public var exitType: String?
    /// `session.restore_on_startup`: 1 the last session, 4 URLs, 5 the New Tab page, 6 the last
    /// session and URLs; nil when absent (the New Tab page on Windows, macOS and Linux).
    public var restoreOnStartup: Int64?
    /// Whether `Preferences` was there and parsed.
    public var read: Bool
    /// The product whose keys `Preferences` holds (`ChromiumProduct.fromPreferences`), if any.
    public var product: ChromiumProduct?

    public init(exitType: String? = nil, restoreOnStartup: Int64? = nil, read: Bool = false) {
        self.exitType = exitType
        self.restoreOnStartup = restoreOnStartup
        self.read = read
    }

    /// Reads `Preferences` of the profile at `profile` of `tree`.
    public static func read(tree: ReadableTree, profile: String) -> ChromiumDesktopSettings {
        guard let bytes = try? tree.read(joinPath(profile, ChromiumDesktopLayout.preferencesFile)),
            let value = try? JSONParser.parse(bytes, file: ChromiumDesktopLayout.preferencesFile, maxDepth: JSONParser.chromiumDepth)
        else { return ChromiumDesktopSettings() }
        var settings = ChromiumDesktopSettings(read: true)
        settings.product = ChromiumProduct.fromPreferences(value)
        if case .string(let exit)? = value["profile"]?["exit_type"] { settings.exitType = exit }
        if case .int(let restore)? = value["session"]?["restore_on_startup"] { settings.restoreOnStartup = restore }
        return settings
    }

    /// Whether Chrome restores the last session at a launch: `restore_on_startup` 1 or 6.
    public var restoresLastSession: Bool { restoreOnStartup == 1 || restoreOnStartup == 6 }

    /// Whether the last run did not end cleanly: Chrome then restores nothing by itself and
    /// offers to in a bubble.
    public var crashed: Bool { exitType == "Crashed" }
}

extension SessionFormat {
    /// Chromium desktop's session command logs (`Sessions/Session_<time>`, SNSS).
    public static let snss = SessionFormat(rawValue: "snss")
}
