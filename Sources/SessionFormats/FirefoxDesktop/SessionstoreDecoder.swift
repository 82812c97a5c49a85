/// Reads a Firefox desktop session document (the JSON inside a session file) tolerantly: every
/// window and tab that reads is kept, a damaged or cut-short document yields every complete tab
/// before the damage (and a tab cut there that holds a complete entry), and values of another
/// type than Firefox writes are read as absent rather than refused.
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
    /// before the damage, then the session read from it.
    static func decodeSalvaging(_ json: [UInt8]) -> Decoded {
        let salvage = JSONParser.salvage(json)
        guard let value = salvage.value, case .object = value else {
            return Decoded(document: nil, damage: salvage.damage, cutTabs: 0)
        }
        var cut = 0
        var document = SessionstoreDocument(raw: .value(value))
        document.windows = windows(value["windows"], at: [.key("windows")], damage: salvage.damage, cut: &cut)
        document.closedWindows = windows(value["_closedWindows"], at: [.key("_closedWindows")], damage: salvage.damage, cut: &cut)
        document.selectedWindow = integer(value["selectedWindow"]).map { Int(clamping: $0) } ?? 0
        document.version = value["version"]
        if let session = value["session"] {
            if case .string(let state)? = session["state"] { document.state = state }
            document.lastUpdate = integer(session["lastUpdate"])
            document.startTime = integer(session["startTime"])
            document.recentCrashes = integer(session["recentCrashes"]).map { Int(clamping: $0) }
        }
        return Decoded(document: document, damage: salvage.damage, cutTabs: cut)
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
            window.tabs = tabs(element["tabs"], at: at + [.key("tabs")], damage: damage, cut: &cut, closed: false)
            window.closedTabs = tabs(element["_closedTabs"], at: at + [.key("_closedTabs")], damage: damage, cut: &cut, closed: true)
            window.selected = integer(element["selected"]).map { Int(clamping: $0) } ?? 0
            if case .bool(true)? = element["isPrivate"] { window.isPrivate = true }
            window.groups = groups(element["groups"])
            windows.append(window)
        }
        return windows
    }

    /// The tab groups of a window's `groups` (each with a string `id`).
    static func groups(_ value: JSONValue?) -> [SessionstoreGroup] {
        guard case .array(let groups)? = value else { return [] }
        return groups.compactMap { group in
            guard case .string(let id)? = group["id"] else { return nil }
            var result = SessionstoreGroup(id: id)
            if case .string(let name)? = group["name"] { result.name = name }
            if case .string(let color)? = group["color"] { result.color = color }
            if case .bool(let collapsed)? = group["collapsed"] { result.collapsed = collapsed }
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
            guard let object = closed ? element["state"] : element, case .object = object else { continue }
            let whole = damage?.leavesWhole(at) ?? true
            guard let tab = tab(object, at: at, damage: whole ? nil : damage) else { continue }
            if !whole {
                // A tab the damage cut is kept for what it holds whole: at least one entry.
                guard !tab.entries.isEmpty else { continue }
                cut += 1
            }
            tabs.append(tab)
        }
        return tabs
    }

    /// One tab object; with `damage`, only its entries that the damage left whole.
    static func tab(_ value: JSONValue, at path: [JSONPathComponent], damage: JSONSalvage.Damage?) -> SessionstoreTab? {
        var tab = SessionstoreTab(raw: .value(value))
        if case .array(let entries)? = value["entries"] {
            for (index, element) in entries.enumerated() {
                if let damage, !damage.leavesWhole(path + [.key("entries"), .index(index)]) {
                    // The entry the damage cut is no part of the tab, in what is read or written of it.
                    if case .object(var members) = value, let at = members.firstIndex(where: { $0.0 == "entries" }) {
                        members[at].1 = .array(Array(entries.prefix(index)))
                        tab.raw = .object(members)
                    }
                    break
                }
                guard let entry = entry(element) else { continue }
                tab.entries.append(entry)
            }
        }
        tab.index = integer(value["index"]).map { Int(clamping: $0) } ?? 0
        if case .bool(true)? = value["pinned"] { tab.pinned = true }
        if case .bool(true)? = value["hidden"] { tab.hidden = true }
        tab.lastAccessed = integer(value["lastAccessed"])
        if case .string(let group)? = value["groupId"] { tab.groupID = group }
        return tab
    }

    /// One history entry (nil for what is not an object).
    static func entry(_ value: JSONValue) -> SessionstoreEntry? {
        guard case .object = value else { return nil }
        var entry = SessionstoreEntry(url: "")
        if case .string(let url)? = value["url"] { entry.url = url }
        if case .string(let title)? = value["title"] { entry.title = title }
        if case .array(let children)? = value["children"] { entry.children = children.count }
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
