import SessionModel

/// Decodes Chrome's legacy session archive into a `LegacyWindow`, following `$top`/`root`, UIDs and
/// class names (old aliases included).
///
/// Decoding follows the schema, never the graph at large: each reference must lead to an object of
/// the expected class, and a reference back to an object still being decoded is a cycle. Both are
/// reported as damage at the referring object's byte offset; nothing recurses without bound.
///
/// Each archived object is decoded once however often it is referred to (tabs, entries and groups
/// are kept by UID), and every reference followed is charged to an `ExpansionBudget`: a file whose
/// shared references expand past what its size allows is damage, found before it is expanded.
struct LegacyArchiveDecoder {
    let archive: KeyedArchive
    /// What the references followed so far expand to, and how far they may.
    private var budget: ExpansionBudget
    /// Objects being decoded, to recognise a reference back to one of them.
    var active: Set<UInt64> = []
    /// Archived objects already looked up, by UID.
    private var objects: [UInt64: ArchivedObject] = [:]
    /// Tabs already decoded, by UID, with what each expands to.
    private var tabs: [UInt64: (tab: LegacyTab, weight: ExpansionWeight)] = [:]
    /// Navigation items already decoded, by UID (a file may share one item many times).
    private var items: [UInt64: NavigationItem] = [:]
    /// Tab groups already decoded, by UID.
    private var groups: [UInt64: TabGroup] = [:]
    /// Retired class names met among the objects Chrome decodes.
    private var retired: Set<String> = []

    init(archive: KeyedArchive) {
        self.archive = archive
        budget = ExpansionBudget(storedSize: archive.plist.byteCount)
    }

    /// Decodes the archive's root: a SessionWindowIOS, or an older SessionIOS holding one.
    mutating func decodeRoot() throws(PlistDamage) -> LegacyWindow {
        let topObject = archive.plist.topObject
        let root = try expect(try archive.topReference("root"), referrer: topObject, [.window, .sessionIOS], what: "the archive's root")
        guard LegacyClass(root) == .sessionIOS else {
            var result = try window(root)
            result.retiredClassNames = retired.sorted()
            return result
        }
        let windows = try collection(root, "sessionWindows")
        guard let first = windows.first else {
            return LegacyWindow(wrappedInSessionIOS: true, offset: root.offset, windowsInRoot: 0)
        }
        var result = try window(try expect(first, referrer: root.index, [.window], what: "SessionIOS.sessionWindows[0]"))
        result.wrappedInSessionIOS = true
        result.windowsInRoot = windows.count
        result.retiredClassNames = retired.sorted()
        return result
    }

    /// The archived object `uid` (nil for `$null`), looked up once however often it is referred to.
    mutating func archived(_ uid: UInt64, referrer: Int) throws(PlistDamage) -> ArchivedObject? {
        if let known = objects[uid] { return known }
        guard let object = try archive.object(uid, referrer: referrer) else { return nil }
        objects[uid] = object
        return object
    }

    /// The archived object `uid`, which must be of one of `classes`; entered as being decoded.
    mutating func expect(_ uid: UInt64, referrer: Int, _ classes: [LegacyClass], what: String) throws(PlistDamage) -> ArchivedObject {
        guard !active.contains(uid) else {
            throw PlistDamage(
                offset: archive.plist.offset(of: referrer), reason: "reference cycle: \(what) is archive object \(uid), which contains it")
        }
        guard let object = try archived(uid, referrer: referrer) else {
            throw PlistDamage(offset: archive.plist.offset(of: referrer), reason: "\(what) is $null")
        }
        guard classes.contains(LegacyClass(object)) else {
            let expected = classes.map(\.name).joined(separator: " or ")
            throw PlistDamage(offset: object.offset, reason: "\(what) is a \(object.className), expected \(expected)")
        }
        if LegacyClass.retiredNames.contains(object.className) { retired.insert(object.className) }
        return object
    }

    /// The element UIDs of the collection under `key` (empty when absent or `$null`).
    mutating func collection(_ owner: ArchivedObject, _ key: String) throws(PlistDamage) -> [UInt64] {
        guard let uid = try owner.reference(key) else { return [] }
        let array = try expect(uid, referrer: owner.index, [.collection], what: "\(owner.className).\(key)")
        return try array.elements()
    }

    private mutating func window(_ object: ArchivedObject) throws(PlistDamage) -> LegacyWindow {
        active.insert(object.uid)
        defer { active.remove(object.uid) }
        var tabs: [LegacyTab] = []
        for (index, uid) in try collection(object, "sessions").enumerated() {
            if let known = self.tabs[uid] {
                try budget.charge(known.weight, at: object.offset)
                tabs.append(known.tab)
                continue
            }
            let storage = try expect(uid, referrer: object.index, [.sessionStorage], what: "sessions[\(index)]")
            let before = budget.spent
            let tab = try tab(storage)
            self.tabs[uid] = (tab, budget.spent - before)
            tabs.append(tab)
        }
        var groups: [TabGroup] = []
        for (index, uid) in try collection(object, "tabGroups").enumerated() {
            let group: TabGroup
            if let known = self.groups[uid] {
                group = known
            } else {
                group = try tabGroup(try expect(uid, referrer: object.index, [.tabGroup], what: "tabGroups[\(index)]"))
                self.groups[uid] = group
            }
            try budget.charge(ExpansionWeight(group), at: object.offset)
            groups.append(group)
        }
        return LegacyWindow(selectedIndex: try object.integer("selectedIndex") ?? 0, tabs: tabs, groups: groups, offset: object.offset)
    }

    /// One tab, its entries, certificates and user data; charges the budget with all of them.
    private mutating func tab(_ object: ArchivedObject) throws(PlistDamage) -> LegacyTab {
        active.insert(object.uid)
        defer { active.remove(object.uid) }
        var entries: [NavigationItem] = []
        // Chrome reads no entry at all when one of them is not a navigation item (crbug.com/358616893).
        let uids = try collection(object, "entries")
        var foreign: String?
        for uid in uids {
            guard isObject(uid, referrer: object.index), let entry = try archived(uid, referrer: object.index) else {
                foreign = uid == 0 ? "$null" : archive.plist[try archive.entry(uid, referrer: object.index)].kindName
                break
            }
            guard LegacyClass(entry) == .navigationItem else {
                foreign = entry.className
                break
            }
        }
        var positions: [Int] = []
        for (index, uid) in uids.enumerated() {
            if let item = items[uid] {
                try budget.charge(ExpansionWeight(item), at: object.offset)
                entries.append(item)
                positions.append(index)
                continue
            }
            if foreign != nil {
                // Kept aside for a repair; only objects that are navigation items.
                guard isObject(uid, referrer: object.index), let entry = try archived(uid, referrer: object.index),
                    LegacyClass(entry) == .navigationItem
                else { continue }
            }
            let item = try navigationItem(try expect(uid, referrer: object.index, [.navigationItem], what: "entries[\(index)]"))
            items[uid] = item
            try budget.charge(ExpansionWeight(item), at: object.offset)
            entries.append(item)
            positions.append(index)
        }
        let committed = object.has("lastCommittedItemIndex") ? "lastCommittedItemIndex" : "currentNavigationIndex"
        var tab = LegacyTab(
            uniqueIdentifier: try object.integer("uniqueIdentifier"),
            stableIdentifier: try object.string("stableIdentifier"),
            openedByDOM: try object.bool("openedByDOM") ?? false,
            lastCommittedItemIndex: try object.integer(committed) ?? 0,
            items: entries,
            userAgentKey: try object.bytes("userAgentKey").map { String(decoding: $0, as: UTF8.self) },
            creationTime: Timestamp(microseconds: try object.integer("creationTime") ?? 0),
            lastActiveTime: Timestamp(microseconds: try object.integer("lastActiveTime") ?? 0),
            offset: object.offset
        )
        try budget.charge(ExpansionWeight(tab), at: object.offset)
        tab.foreignEntry = foreign
        if foreign != nil {
            tab.salvagedItems = entries
            // The committed entry among those kept: itself, else the last kept before it.
            let stored = tab.lastCommittedItemIndex
            tab.salvagedLastCommittedItemIndex = Int64(positions.lastIndex { Int64($0) <= stored } ?? (entries.isEmpty ? -1 : 0))
            tab.items = []
        }
        let cacheKey = object.has("certificatePolicyCacheStorage") ? "certificatePolicyCacheStorage" : "certificatePolicyManager"
        if let uid = try object.reference(cacheKey) {
            let cache = try expect(uid, referrer: object.index, [.certificateCache, .other], what: "\(object.className).\(cacheKey)")
            tab.certificates = try certificates(cache)
            for record in tab.certificates { try budget.charge(ExpansionWeight(record), at: cache.offset) }
        }
        if let uid = try object.reference("serializedUserData") {
            // Before M99 the user data was archived as a bare dictionary, which Chrome still reads.
            let userData = try expect(uid, referrer: object.index, [.userData, .dictionary], what: "\(object.className).serializedUserData")
            try applyUserData(userData, to: &tab)
        }
        return tab
    }

    /// True when `uid` names an archived object (a dictionary), not a plain value.
    func isObject(_ uid: UInt64, referrer: Int) -> Bool {
        guard uid != 0, let index = try? archive.entry(uid, referrer: referrer), case .dictionary = archive.plist[index] else {
            return false
        }
        return true
    }
}
