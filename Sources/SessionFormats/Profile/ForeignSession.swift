/// Session files and profiles of other browsers than the family reading them (and of browsers
/// sessionctl does not read yet), recognised by content and layout so that each is named for what
/// it is (status 65) rather than called damaged or empty.
public enum ForeignSession: Equatable, Sendable {
    /// A Chromium desktop command log (`SNSS`): Chrome, Edge, Brave, Vivaldi.
    case chromiumDesktop(version: UInt32)
    /// Firefox desktop's mozLz4 container (`mozLz40\0`): sessionstore.jsonlz4 and its backups.
    case firefoxDesktop
    /// Firefox for iOS's window data (`window-<UUID>`): JSON with `activeTabId` and `tabData`,
    /// which `FirefoxIOSFamily` reads.
    case firefoxIOSWindowData
    /// Firefox for iOS's legacy tab archive (`tabsState.archive`): a keyed archive of `SavedTab`s.
    case firefoxIOSArchive
    /// A property list that holds none of Chrome for iOS's session classes.
    case otherPropertyList

    /// What the file is, for the error line.
    public var description: String {
        switch self {
        case .chromiumDesktop(let version):
            let encrypted = version == 2 || version == 4 ? ", encrypted" : ""
            return "a Chromium desktop session file (SNSS version \(version)\(encrypted)), read as --browser chromium-desktop"
        case .firefoxDesktop:
            return "a Firefox desktop session file (mozLz4-compressed JSON), read as --browser firefox-desktop"
        case .firefoxIOSWindowData:
            return "Firefox for iOS window data (JSON), read as --browser firefox-ios"
        case .firefoxIOSArchive:
            return "a Firefox for iOS tab archive (a keyed archive of SavedTab objects), read as --browser firefox-ios"
        case .otherPropertyList:
            return "a property list that is not a Chrome for iOS session"
        }
    }

    /// The foreign kind of a file's bytes; nil for what may be Chrome for iOS's (or is unknown).
    /// `chromePlistName` is true for a file named as Chrome's property lists are, which is read
    /// as Chrome's (damaged or not) whatever it holds.
    public static func recognize(_ bytes: [UInt8], chromePlistName: Bool) -> ForeignSession? {
        if bytes.starts(with: Array("SNSS".utf8)) {
            let version = bytes.count >= 8 ? bytes[4..<8].reversed().reduce(UInt32(0)) { $0 << 8 | UInt32($1) } : 0
            return .chromiumDesktop(version: version)
        }
        if bytes.starts(with: Array("mozLz40\0".utf8)) { return .firefoxDesktop }
        if bytes.first == UInt8(ascii: "{"), contains(bytes, "\"activeTabId\""), contains(bytes, "\"tabData\"") {
            return .firefoxIOSWindowData
        }
        guard !chromePlistName else { return nil }
        let binary = bytes.starts(with: Array("bplist".utf8))
        let xml = bytes.starts(with: Array("<?xml".utf8)) && contains(bytes, "<plist")
        guard binary || xml else { return nil }
        if contains(bytes, "SavedTab") { return .firefoxIOSArchive }
        let chromeClasses = ["SessionWindow", "CRWSession", "SessionIOS", "CRWNavigation", "SessionEntry", "SessionController"]
        return chromeClasses.contains { contains(bytes, $0) } ? nil : .otherPropertyList
    }

    /// What a directory that holds no Chrome for iOS session is, from the names in it (`names`)
    /// and in its `Sessions` child (`sessionsNames`): nil when nothing foreign is there.
    public static func describeDirectory(name: String, names: Set<String>, sessionsNames: Set<String>) -> String? {
        // A Session_ file: a Tabs_ file alone sits beside Chrome for iOS's own sessions in real profiles.
        let snss = { (names: Set<String>) in names.contains { $0.hasPrefix("Session_") } }
        if snss(sessionsNames) || ["Current Session", "Last Session", "Current Tabs", "Last Tabs"].contains(where: names.contains)
            || (name == "Sessions" && snss(names))
        {
            return
                "a Chromium desktop profile (its sessions are SNSS files: Sessions/Session_*, Tabs_*), read as --browser chromium-desktop"
        }
        if names.contains("sessionstore.jsonlz4") || names.contains("sessionstore-backups") || names.contains("recovery.jsonlz4")
            || names.contains("recovery.baklz4")
        {
            return "a Firefox desktop profile (sessionstore.jsonlz4 and sessionstore-backups/), read as --browser firefox-desktop"
        }
        if names.contains("window-data") || (name == "window-data" && names.contains { $0.hasPrefix("window-") }) {
            return "Firefox for iOS window data (window-data/), read as --browser firefox-ios"
        }
        if names.contains("tabsState.archive") || names.contains("codableTabsState.archive") {
            return "Firefox for iOS's legacy tab archive (tabsState.archive), read as --browser firefox-ios"
        }
        return nil
    }

    /// Whether `bytes` hold the UTF-8 of `text` anywhere.
    package static func contains(_ bytes: [UInt8], _ text: String) -> Bool {
        let needle = Array(text.utf8)
        guard let first = needle.first, bytes.count >= needle.count else { return false }
        var index = 0
        let last = bytes.count - needle.count
        while index <= last {
            if bytes[index] == first && bytes[index..<index + needle.count].elementsEqual(needle) { return true }
            index += 1
        }
        return false
    }
}
