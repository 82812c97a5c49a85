import Archive
import FileSystemKit
import SessionFormats
import SessionModel

/// Reads a Firefox desktop session document (the JSON inside a session file) tolerantly: every
/// window and tab that reads is kept, a damaged or cut-short document yields every complete tab
/// before the damage (and a tab cut there that holds a complete entry), and values of another
/// type than Firefox writes are read as absent rather than refused. Keys are read as JavaScript's
/// `JSON.parse` reads them: a key written twice has its last value; an escaped lone surrogate is
/// taken (as U+FFFD).
public enum SessionstoreDecoder {
    /// What a document decodes to.
    public struct Decoded: Sendable, Equatable {
        /// The session read; nil when not even the outermost object began well, or the document
        /// is not a JSON object.
        public var document: SessionstoreDocument?
        /// The first error of a damaged document (its offset is into the JSON).
        public var damage: JSONSalvage.Damage?
        /// Tabs kept though the damage cut them (each with its complete entries).
        public var cutTabs: Int
    }

    /// Decodes the JSON bytes of a session file: a whole document in one pass that builds only
    /// what the session holds (`SessionstoreScanner`), anything else through the parser's salvage.
    public static func decode(_ json: [UInt8]) -> Decoded {
        if let document = SessionstoreScanner.decode(json) { return Decoded(document: document, damage: nil, cutTabs: 0) }
        return decodeSalvaging(json)
    }

    /// The one-pass reading alone (nil where it gives up), for the fuzz target that holds it to
    /// the parser's.
    public static func scanned(_ json: [UInt8]) -> SessionstoreDocument? { SessionstoreScanner.decode(json) }

    /// The parser's salvage alone, for the same.
    public static func salvaged(_ json: [UInt8]) -> Decoded { decodeSalvaging(json) }

    /// Decodes the JSON bytes of a session file by the parser's salvage: the tree of every value
    /// before the damage, then the session read from it. What the damage cut is left out of the
    /// JSON kept for a rewrite too (`pruned`).
    static func decodeSalvaging(_ json: [UInt8]) -> Decoded {
        let salvage = JSONParser.salvage(json, takingLoneSurrogates: true, maxDepth: nil)
        guard let value = salvage.value, case .object = value else {
            return Decoded(document: nil, damage: salvage.damage, cutTabs: 0)
        }
        let path = salvage.damage?.path ?? []
        var cut = 0
        var document = SessionstoreDocument(raw: .value(pruned(value, ArraySlice(path))))
        document.windows = windows(member(value, "windows"), at: [.key("windows")], damage: salvage.damage, cut: &cut)
        document.closedWindows = windows(
            member(value, "_closedWindows"), at: [.key("_closedWindows")], damage: salvage.damage, cut: &cut)
        document.selectedWindow = integer(member(value, "selectedWindow")).map { Int(clamping: $0) } ?? 0
        document.version = member(value, "version")
        readSession(member(value, "session"), into: &document)
        return Decoded(document: document, damage: salvage.damage, cutTabs: cut)
    }

    /// The value of `key` in an object as `JSON.parse` keeps it: the last one written.
    static func member(_ value: JSONValue?, _ key: String) -> JSONValue? {
        guard case .object(let members)? = value else { return nil }
        return members.last { $0.0 == key }?.1
    }

    /// What SessionStartup reads of the document's `session`.
    static func readSession(_ session: JSONValue?, into document: inout SessionstoreDocument) {
        let state = member(session, "state")
        if case .string(let text)? = state { document.state = text } else { document.state = nil }
        document.stateSaysRunning = !(state?.isTruthyInJavaScript ?? false) || state == .string("running")
        document.lastUpdate = integer(member(session, "lastUpdate"))
        document.startTime = integer(member(session, "startTime"))
        document.recentCrashes = integer(member(session, "recentCrashes")).map { Int(clamping: $0) }
    }

    /// `value` without what the damage at `path` (below it) cut: the element of an array being
    /// read there removed whole, or the member of an object being read there, in the containers
    /// along the path. What a salvage kept of a container open at the damage is valid JSON but
    /// not a value anyone wrote; a rewrite carries only whole values.
    static func pruned(_ value: JSONValue, _ path: ArraySlice<JSONPathComponent>) -> JSONValue {
        guard let step = path.first else { return value }
        switch (value, step) {
        case (.object(var members), .key(let key)):
            guard let index = members.lastIndex(where: { $0.0 == key }) else { return value }
            if path.count == 1 {
                members.remove(at: index)
            } else if case .array(var elements) = members[index].1, case .index(let element)? = path.dropFirst().first,
                elements.indices.contains(element)
            {
                elements.remove(at: element)
                members[index].1 = .array(elements)
            } else {
                members[index].1 = pruned(members[index].1, path.dropFirst())
            }
            return .object(members)
        case (.array(var elements), .index(let element)):
            if elements.indices.contains(element) { elements.remove(at: element) }
            return .array(elements)
        default: return value
        }
    }

    /// The windows of an array (each window's open and closed tabs).
    static func windows(
        _ value: JSONValue?, at path: [JSONPathComponent], damage: JSONSalvage.Damage?, cut: inout Int
    ) -> [SessionstoreWindow] {
        guard case .array(let elements)? = value else { return [] }
        var windows: [SessionstoreWindow] = []
        for (index, element) in elements.enumerated() {
            guard case .object = element else { continue }
            let at = path + [.index(index)]
            var window = SessionstoreWindow(raw: .value(element))
            if let damage, !damage.leavesWhole(at) { window.raw = pruned(element, damage.path.dropFirst(at.count)) }
            window.tabs = tabs(member(element, "tabs"), at: at + [.key("tabs")], damage: damage, cut: &cut, closed: false)
            window.closedTabs = tabs(
                member(element, "_closedTabs"), at: at + [.key("_closedTabs")], damage: damage, cut: &cut, closed: true)
            window.selected = integer(member(element, "selected")).map { Int(clamping: $0) } ?? 0
            if case .bool(true)? = member(element, "isPrivate") { window.isPrivate = true }
            window.groups = groups(member(element, "groups"))
            windows.append(window)
        }
        return windows
    }

    /// The tab groups of a window's `groups` (each with a string `id`).
    static func groups(_ value: JSONValue?) -> [SessionstoreGroup] {
        guard case .array(let groups)? = value else { return [] }
        return groups.compactMap { group in
            guard case .string(let id)? = member(group, "id") else { return nil }
            var result = SessionstoreGroup(id: id)
            if case .string(let name)? = member(group, "name") { result.name = name }
            if case .string(let color)? = member(group, "color") { result.color = color }
            if case .bool(let collapsed)? = member(group, "collapsed") { result.collapsed = collapsed }
            return result
        }
    }

    /// The tabs of an array: open tabs, or (`closed`) closed tabs, each of which holds the tab
    /// under `state`.
    static func tabs(
        _ value: JSONValue?, at path: [JSONPathComponent], damage: JSONSalvage.Damage?, cut: inout Int, closed: Bool
    ) -> [SessionstoreTab] {
        guard case .array(let elements)? = value else { return [] }
        var tabs: [SessionstoreTab] = []
        tabs.reserveCapacity(elements.count)
        for (index, element) in elements.enumerated() {
            let at = closed ? path + [.index(index), .key("state")] : path + [.index(index)]
            guard let object = closed ? member(element, "state") : element, case .object = object else { continue }
            let whole = damage?.leavesWhole(at) ?? true
            // A closed tab the damage cut is left out: it is reopened whole or not at all.
            if closed, !whole { continue }
            guard var tab = tab(object) else { continue }
            if !whole, let damage {
                // A tab the damage cut is kept for what it holds whole (at least one entry), in
                // what is read and in what is written of it.
                let raw = pruned(object, damage.path.dropFirst(at.count))
                guard let kept = self.tab(raw), !kept.entries.isEmpty else { continue }
                tab = kept
                cut += 1
            }
            tabs.append(tab)
        }
        return tabs
    }

    /// One tab object (its JSON kept as its raw).
    static func tab(_ value: JSONValue) -> SessionstoreTab? {
        guard case .object = value else { return nil }
        var tab = SessionstoreTab(raw: .value(value))
        if case .array(let entries)? = member(value, "entries") { tab.entries = entries.compactMap(entry) }
        tab.index = integer(member(value, "index")).map { Int(clamping: $0) } ?? 0
        if case .bool(true)? = member(value, "pinned") { tab.pinned = true }
        if case .bool(true)? = member(value, "hidden") { tab.hidden = true }
        tab.lastAccessed = integer(member(value, "lastAccessed"))
        if case .string(let group)? = member(value, "groupId") { tab.groupID = group }
        return tab
    }

    /// One history entry (nil for what is not an object).
    static func entry(_ value: JSONValue) -> SessionstoreEntry? {
        guard case .object = value else { return nil }
        var entry = SessionstoreEntry(url: "")
        if case .string(let url)? = member(value, "url") { entry.url = url }
        if case .string(let title)? = member(value, "title") { entry.title = title }
        if case .array(let children)? = member(value, "children") { entry.children = children.count }
        return entry
    }

    /// An integer written as a JSON integer or a number with no fraction.
    static func integer(_ value: JSONValue?) -> Int64? {
        switch value {
        case .int(let number)?: return number
        case .double(let number)? where number.isFinite && number.rounded() == number && abs(number) < 9.0e18: return Int64(number)
        default: return nil
        }
    }
}

extension JSONValue {
    /// Whether JavaScript takes the value as true: all but `null`, `false`, `0`, `NaN` and `""`.
    public var isTruthyInJavaScript: Bool {
        switch self {
        case .null: return false
        case .bool(let flag): return flag
        case .int(let number): return number != 0
        case .double(let number): return number != 0 && !number.isNaN
        case .string(let text): return !text.isEmpty
        case .array, .object, .verbatim: return true
        }
    }
}
