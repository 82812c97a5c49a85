import Archive
import FileSystemKit
import SessionFormats
import SessionModel

/// A Firefox desktop session as its session files hold it (docs/firefox-desktop-format.md): the
/// open windows with their tabs and histories, the closed windows, and the `session` facts.
///
/// Every window, tab and entry keeps the JSON object it was read from (`raw`), so that a rewrite
/// carries every key Firefox wrote, known or not.
public struct SessionstoreDocument: Sendable, Equatable {
    public var windows: [SessionstoreWindow]
    /// `_closedWindows`: windows the user closed, which Firefox offers to reopen.
    public var closedWindows: [SessionstoreWindow]
    /// `selectedWindow`: the 1-based index of the window that had focus (0 or absent: none).
    public var selectedWindow: Int
    /// `version`, as written (`["sessionrestore", 1]`); nil when absent.
    public var version: JSONValue?
    /// `session.state`: "running" while Firefox runs, "stopped" in the file of a clean shutdown.
    public var state: String?
    /// `session.lastUpdate` and `session.startTime`: milliseconds since 1970.
    public var lastUpdate: Int64?
    public var startTime: Int64?
    /// Whether `session.state` marks a run that did not end cleanly, as SessionStartup reads it:
    /// missing or falsy (`""`, `0`, `false`, `null`), or `"running"`.
    public var stateSaysRunning = true
    /// `session.recentCrashes`: crashes in a row the session was recovered from.
    public var recentCrashes: Int?
    /// The document as read.
    public var rawJSON: RawJSON
    /// The document as read, parsed.
    public var raw: JSONValue {
        get { rawJSON.value }
        set { rawJSON = .value(newValue) }
    }

    public init(
        windows: [SessionstoreWindow] = [], closedWindows: [SessionstoreWindow] = [], selectedWindow: Int = 0, version: JSONValue? = nil,
        state: String? = nil, lastUpdate: Int64? = nil, startTime: Int64? = nil, recentCrashes: Int? = nil,
        raw: RawJSON = .value(.object([]))
    ) {
        self.windows = windows
        self.closedWindows = closedWindows
        self.selectedWindow = selectedWindow
        self.version = version
        self.state = state
        self.lastUpdate = lastUpdate
        self.startTime = startTime
        self.recentCrashes = recentCrashes
        self.rawJSON = raw
    }

    /// Every tab of the open windows.
    public var tabCount: Int { windows.reduce(0) { $0 + $1.tabs.count } }

    /// Why Firefox refuses the document's `version` (it skips the file), or nil when it accepts
    /// it: an absent or falsy version (`0`, `""`, `false`, `null`) is taken as
    /// `["sessionrestore", 0]`; otherwise it must be an array whose first element is
    /// "sessionrestore" and whose second parses (`parseFloat`) as a number no greater than 1,
    /// Firefox's format version.
    public var versionRefusal: String? {
        guard let version, version.isTruthyInJavaScript else { return nil }
        guard case .array(let parts) = version else { return "its version is not an array" }
        guard parts.first == .string("sessionrestore") else { return "its version does not name sessionrestore" }
        let number: Double? =
            switch parts.count > 1 ? parts[1] : .null {
            case .int(let value): Double(value)
            case .double(let value): value
            case .string(let text): SessionstoreDocument.leadingNumber(text)
            // parseFloat reads the value's string: "true", "null" and a missing one are NaN.
            default: nil
            }
        guard let number, !number.isNaN else { return "its version number is not a number" }
        let shown = number.rounded() == number && abs(number) < 1e15 ? String(Int64(number)) : String(number)
        return number <= 1 ? nil : "its format version \(shown) is newer than Firefox's 1"
    }

    /// The number at the start of `text`, as JavaScript's `parseFloat` reads it: a sign, digits
    /// with a point, an exponent, or `Infinity` (nil for NaN).
    static func leadingNumber(_ text: String) -> Double? {
        let scalars = Array(text.unicodeScalars.drop { $0.properties.isWhitespace })
        var end = 0
        var sawDigit = false
        var sawPoint = false
        if end < scalars.count, scalars[end] == "-" || scalars[end] == "+" { end += 1 }
        let sign: Double = scalars.first == "-" ? -1 : 1
        if String(String.UnicodeScalarView(scalars[end...])).hasPrefix("Infinity") { return sign * .infinity }
        while end < scalars.count {
            let scalar = scalars[end]
            if ("0"..."9").contains(scalar) {
                sawDigit = true
            } else if scalar == ".", !sawPoint {
                sawPoint = true
            } else {
                break
            }
            end += 1
        }
        guard sawDigit else { return nil }
        // An exponent counts only with a digit after it.
        if end < scalars.count, scalars[end] == "e" || scalars[end] == "E" {
            var exponent = end + 1
            if exponent < scalars.count, scalars[exponent] == "-" || scalars[exponent] == "+" { exponent += 1 }
            let digits = exponent
            while exponent < scalars.count, ("0"..."9").contains(scalars[exponent]) { exponent += 1 }
            if exponent > digits { end = exponent }
        }
        return Double(String(String.UnicodeScalarView(scalars[..<end])))
    }
}

/// One window of a session: its tabs, the selected one, its closed tabs and its tab groups.
public struct SessionstoreWindow: Sendable, Equatable {
    public var tabs: [SessionstoreTab]
    /// `selected`: the 1-based index of the selected tab (0 or absent: the first).
    public var selected: Int
    /// `_closedTabs`: each closed tab's `state`.
    public var closedTabs: [SessionstoreTab]
    /// `groups`: the window's tab groups.
    public var groups: [SessionstoreGroup]
    /// `isPrivate`: a private window (saved only in the running session's files).
    public var isPrivate: Bool
    /// The window's object as read.
    public var rawJSON: RawJSON
    /// The window's object as read, parsed.
    public var raw: JSONValue {
        get { rawJSON.value }
        set { rawJSON = .value(newValue) }
    }

    public init(
        tabs: [SessionstoreTab] = [], selected: Int = 0, closedTabs: [SessionstoreTab] = [], groups: [SessionstoreGroup] = [],
        isPrivate: Bool = false, raw: RawJSON = .value(.object([]))
    ) {
        self.tabs = tabs
        self.selected = selected
        self.closedTabs = closedTabs
        self.groups = groups
        self.isPrivate = isPrivate
        self.rawJSON = raw
    }

    /// The index of the tab Firefox selects: `selected` clamped to the tabs (-1 with none).
    public var selectedIndex: Int {
        tabs.isEmpty ? -1 : min(max(selected, 1), tabs.count) - 1
    }
}

/// One tab: its history entries, the current one, and what Firefox keeps beside them.
public struct SessionstoreTab: Sendable, Equatable {
    public var entries: [SessionstoreEntry]
    /// `index`: the 1-based index of the current entry (0 or absent: the last).
    public var index: Int
    public var pinned: Bool
    public var hidden: Bool
    /// `lastAccessed`: milliseconds since 1970.
    public var lastAccessed: Int64?
    /// `groupId`: the tab group it belongs to.
    public var groupID: String?
    /// The tab's object as read.
    public var rawJSON: RawJSON
    /// The tab's object as read, parsed.
    public var raw: JSONValue {
        get { rawJSON.value }
        set { rawJSON = .value(newValue) }
    }

    public init(
        entries: [SessionstoreEntry] = [], index: Int = 0, pinned: Bool = false, hidden: Bool = false, lastAccessed: Int64? = nil,
        groupID: String? = nil, raw: RawJSON = .value(.object([]))
    ) {
        self.entries = entries
        self.index = index
        self.pinned = pinned
        self.hidden = hidden
        self.lastAccessed = lastAccessed
        self.groupID = groupID
        self.rawJSON = raw
    }

    /// The index of the entry Firefox shows: `index` (the last entry when absent) clamped to
    /// the entries (-1 with none).
    public var currentIndex: Int {
        guard !entries.isEmpty else { return -1 }
        let index = self.index > 0 ? self.index : entries.count
        return min(max(index, 1), entries.count) - 1
    }

    /// The entry Firefox shows.
    public var currentEntry: SessionstoreEntry? {
        currentIndex >= 0 ? entries[currentIndex] : nil
    }

    /// What tells the tab apart from another when files are merged: its entries' URLs in order.
    public var identity: [String] { entries.map(\.url) }
}

/// One entry of a tab's history.
public struct SessionstoreEntry: Sendable, Equatable {
    public var url: String
    public var title: String
    /// The subframe entries (`children`), counted.
    public var children: Int

    public init(url: String, title: String = "", children: Int = 0) {
        self.url = url
        self.title = title
        self.children = children
    }
}

/// A tab group of a window (`groups`).
public struct SessionstoreGroup: Sendable, Equatable {
    public var id: String
    public var name: String
    public var color: String
    public var collapsed: Bool

    public init(id: String, name: String = "", color: String = "", collapsed: Bool = false) {
        self.id = id
        self.name = name
        self.color = color
        self.collapsed = collapsed
    }
}
