import SessionModel

/// Decodes Chrome's legacy session archive into a `LegacyWindow`, following `$top`/`root`, UIDs and
/// class names (old aliases included).
///
/// Decoding follows the schema, never the graph at large: each reference must lead to an object of
/// the expected class, and a reference back to an object still being decoded is a cycle. Both are
/// reported as damage at the referring object's byte offset; nothing recurses without bound.
struct LegacyArchiveDecoder {
    let archive: KeyedArchive
    /// Objects being decoded, to recognise a reference back to one of them.
    private var active: Set<UInt64> = []
    /// Navigation items already decoded, by UID (a file may share one item many times).
    private var items: [UInt64: NavigationItem] = [:]
    /// Retired class names met among the objects Chrome decodes.
    private var retired: Set<String> = []

    init(archive: KeyedArchive) { self.archive = archive }

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

    /// The archived object `uid`, which must be of one of `classes`; entered as being decoded.
    private mutating func expect(_ uid: UInt64, referrer: Int, _ classes: [LegacyClass], what: String) throws(PlistDamage) -> ArchivedObject {
        guard !active.contains(uid) else {
            throw PlistDamage(offset: archive.plist.offset(of: referrer), reason: "reference cycle: \(what) is archive object \(uid), which contains it")
        }
        guard let object = try archive.object(uid, referrer: referrer) else {
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
    private mutating func collection(_ owner: ArchivedObject, _ key: String) throws(PlistDamage) -> [UInt64] {
        guard let uid = try owner.reference(key) else { return [] }
        let array = try expect(uid, referrer: owner.index, [.collection], what: "\(owner.className).\(key)")
        return try array.elements()
    }

    private mutating func window(_ object: ArchivedObject) throws(PlistDamage) -> LegacyWindow {
        active.insert(object.uid)
        defer { active.remove(object.uid) }
        var tabs: [LegacyTab] = []
        for (index, uid) in try collection(object, "sessions").enumerated() {
            let storage = try expect(uid, referrer: object.index, [.sessionStorage], what: "sessions[\(index)]")
            tabs.append(try tab(storage))
        }
        var groups: [TabGroup] = []
        for (index, uid) in try collection(object, "tabGroups").enumerated() {
            let group = try expect(uid, referrer: object.index, [.tabGroup], what: "tabGroups[\(index)]")
            groups.append(try tabGroup(group))
        }
        return LegacyWindow(selectedIndex: try object.integer("selectedIndex") ?? 0, tabs: tabs, groups: groups, offset: object.offset)
    }

    private mutating func tab(_ object: ArchivedObject) throws(PlistDamage) -> LegacyTab {
        active.insert(object.uid)
        defer { active.remove(object.uid) }
        var entries: [NavigationItem] = []
        // Chrome reads no entry at all when one of them is not a navigation item (crbug.com/358616893).
        let uids = try collection(object, "entries")
        var foreign: String?
        for uid in uids {
            guard isObject(uid, referrer: object.index), let entry = try archive.object(uid, referrer: object.index) else {
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
                entries.append(item)
                positions.append(index)
                continue
            }
            if foreign != nil {
                // Kept aside for a repair; only objects that are navigation items.
                guard isObject(uid, referrer: object.index), let entry = try archive.object(uid, referrer: object.index),
                      LegacyClass(entry) == .navigationItem else { continue }
            }
            let item = try navigationItem(try expect(uid, referrer: object.index, [.navigationItem], what: "entries[\(index)]"))
            items[uid] = item
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
        }
        if let uid = try object.reference("serializedUserData") {
            // Before M99 the user data was archived as a bare dictionary, which Chrome still reads.
            let userData = try expect(uid, referrer: object.index, [.userData, .dictionary], what: "\(object.className).serializedUserData")
            try applyUserData(userData, to: &tab)
        }
        return tab
    }

    private mutating func navigationItem(_ object: ArchivedObject) throws(PlistDamage) -> NavigationItem {
        active.insert(object.uid)
        defer { active.remove(object.uid) }
        func text(_ key: String) throws(PlistDamage) -> String {
            try object.bytes(key).map { String(decoding: $0, as: UTF8.self) } ?? ""
        }
        var item = NavigationItem(
            url: try text("urlString"), virtualURL: try text("virtualUrlString"), title: try object.string("title") ?? "",
            timestamp: Timestamp(microseconds: try object.integer("timestamp") ?? 0),
            // A missing user agent decodes as NONE (the ivar's zero value).
            userAgent: try object.bytes("userAgentType").map { LegacyUserAgent.value(of: String(decoding: $0, as: UTF8.self)) } ?? .none
        )
        if object.has("referrerUrlString") {
            let referrer = try text("referrerUrlString")
            if !referrer.isEmpty {
                let policy = try object.integer("referrerPolicy") ?? 0
                item.referrer = Referrer(url: referrer, policy: ReferrerPolicy(rawValue: Int32(clamping: policy)))
            }
        } else if let url = try oldReferrer(object), !url.isEmpty {
            // The old `referrer` key holds an NSURL; Chrome gives it the default policy.
            item.referrer = Referrer(url: url, policy: .default)
        }
        if let uid = try object.reference("httpHeaders") {
            let headers = try expect(uid, referrer: object.index, [.dictionary], what: "\(object.className).httpHeaders")
            for entry in try headers.dictionaryEntries() {
                guard case .string(let name)? = try archive.scalar(entry.key, referrer: headers.index),
                      case .string(let value)? = try archive.scalar(entry.value, referrer: headers.index)
                else {
                    throw PlistDamage(offset: headers.offset, reason: "\(object.className).httpHeaders holds something other than strings")
                }
                item.headers.append(HTTPHeader(name: name, value: value))
            }
        }
        return item
    }

    /// The string of the old `referrer` key's NSURL (its `NS.relative`), or nil when there is none
    /// or it is not an archived object (Chrome reads an empty URL then).
    private func oldReferrer(_ item: ArchivedObject) throws(PlistDamage) -> String? {
        guard let uid = try? item.reference("referrer"), isObject(uid, referrer: item.index),
              let url = try archive.object(uid, referrer: item.index) else { return nil }
        return try? url.string("NS.relative")
    }

    /// True when `uid` names an archived object (a dictionary), not a plain value.
    private func isObject(_ uid: UInt64, referrer: Int) -> Bool {
        guard uid != 0, let index = try? archive.entry(uid, referrer: referrer), case .dictionary = archive.plist[index] else { return false }
        return true
    }

    private mutating func certificates(_ cache: ArchivedObject) throws(PlistDamage) -> [CertificateRecord] {
        active.insert(cache.uid)
        defer { active.remove(cache.uid) }
        var records: [CertificateRecord] = []
        for (index, uid) in try collection(cache, "kCertificateStoragesKey").enumerated() {
            let storage = try expect(uid, referrer: cache.index, [.certificate], what: "kCertificateStoragesKey[\(index)]")
            let status = try storage.integer("StatusSerializationKey") ?? 0
            records.append(CertificateRecord(
                certificate: try storage.bytes("CertificateSerializationKey") ?? [],
                host: try storage.string("HostSerializationKey") ?? "",
                status: UInt32(truncatingIfNeeded: status)
            ))
        }
        return records.isEmpty ? try oldCertificates(cache) : records
    }

    /// The certificates of the old `allowedCertificates` key: a set of [DER data, host, status]
    /// arrays, read by Chrome when the current key holds none. Entries of another shape are skipped.
    private func oldCertificates(_ cache: ArchivedObject) throws(PlistDamage) -> [CertificateRecord] {
        guard let uid = try? cache.reference("allowedCertificates"), isObject(uid, referrer: cache.index),
              let set = try archive.object(uid, referrer: cache.index), LegacyClass(set) == .collection else { return [] }
        var records: [CertificateRecord] = []
        for element in try set.elements() {
            guard isObject(element, referrer: set.index), let array = try archive.object(element, referrer: set.index),
                  LegacyClass(array) == .collection else { continue }
            let parts = try array.elements()
            guard parts.count == 3 else { continue }
            let certificate: [UInt8]
            switch try archive.scalar(parts[0], referrer: array.index) {
            case .data(let bytes)?: certificate = bytes
            default:
                guard isObject(parts[0], referrer: array.index), let wrapped = try archive.object(parts[0], referrer: array.index),
                      let bytes = try? wrapped.bytes("NS.data") else { continue }
                certificate = bytes
            }
            guard case .string(let host)? = try archive.scalar(parts[1], referrer: array.index), !host.isEmpty,
                  case .integer(let status)? = try archive.scalar(parts[2], referrer: array.index) else { continue }
            records.append(CertificateRecord(certificate: certificate, host: host, status: UInt32(truncatingIfNeeded: status)))
        }
        return records
    }

    /// Reads `PinnedState`, `OpenerIndex`, `OpenerNavigationIndex` and, for a tab without a stable
    /// identifier, `TabId` from the user data: a `CRWSessionUserData`'s `$0` dictionary, or the
    /// bare dictionary of files before M99.
    private mutating func applyUserData(_ userData: ArchivedObject, to tab: inout LegacyTab) throws(PlistDamage) {
        active.insert(userData.uid)
        defer { active.remove(userData.uid) }
        let dictionary: ArchivedObject
        if LegacyClass(userData) == .dictionary {
            dictionary = userData
        } else {
            guard let uid = try userData.reference("$0") else { return }
            dictionary = try expect(uid, referrer: userData.index, [.dictionary], what: "CRWSessionUserData.$0")
        }
        var values: [String: PlistObject] = [:]
        for entry in try dictionary.dictionaryEntries() {
            guard case .string(let key)? = try archive.scalar(entry.key, referrer: dictionary.index) else { continue }
            values[key] = try archive.scalar(entry.value, referrer: dictionary.index)
        }
        func number(_ key: String) throws(PlistDamage) -> Int64? {
            switch values[key] {
            case nil: return nil
            case .integer(let value)?: return value
            case .bool(let flag)?: return flag ? 1 : 0
            case let other?:
                throw PlistDamage(offset: dictionary.offset, reason: "user data \(key) is a \(other.kindName), expected a number")
            }
        }
        tab.pinned = try number("PinnedState").map { $0 != 0 } ?? false
        if tab.stableIdentifier?.isEmpty ?? true, case .string(let tabID)? = values["TabId"], !tabID.isEmpty {
            tab.stableIdentifier = tabID
        }
        if let index = try number("OpenerIndex"), let navigationIndex = try number("OpenerNavigationIndex") {
            tab.opener = Opener(index: Int32(clamping: index), navigationIndex: Int32(clamping: navigationIndex))
        }
    }

    private mutating func tabGroup(_ object: ArchivedObject) throws(PlistDamage) -> TabGroup {
        let idText = try object.string("kTabGroupIdKey")
        return TabGroup(
            start: Int32(clamping: try object.integer("kRangeStartKey") ?? 0),
            count: Int32(clamping: try object.integer("kRangeCountKey") ?? 0),
            title: try object.string("kTitleKey") ?? "",
            color: TabGroupColor(rawValue: Int32(clamping: try object.integer("kColorIdKey") ?? 0)),
            collapsed: try object.bool("kcollapsedStateKey") ?? false,
            // Chrome parses the id strictly (32 upper-case hex digits) and makes a new one otherwise.
            id: idText.flatMap { TabGroupID(tokenString: $0) }
        )
    }
}
