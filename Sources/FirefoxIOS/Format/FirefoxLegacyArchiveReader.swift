import FileSystemKit
import SessionFormats
import SessionModel

/// Reads `$top.tabs` of a legacy tab archive: each element a `SavedTab` object or a Codable
/// dictionary, read with the same keys either way, and judged as Firefox's Codable decoder judges
/// a dictionary (the first refusal kept).
///
/// Reading follows the schema, never the graph at large: the only chain followed to any length is a
/// URL's bases, cut at `maxURLBases`. Each tab is decoded once however often it is referred to, and
/// every reference followed is charged to an `ExpansionBudget`; past it the whole file is damage.
struct FirefoxLegacyArchiveReader {
    /// The longest chain of URLs relative to URLs followed (Firefox writes one level at most).
    static let maxURLBases = 8
    /// The classes Firefox's `decodeDecodable` takes out of the archive: property-list types only.
    static let codableClasses: Set<String> = [
        "NSArray", "NSMutableArray", "NSDictionary", "NSMutableDictionary", "NSString", "NSMutableString", "NSNumber", "NSDate",
        "NSData", "NSMutableData"
    ]

    let archive: KeyedArchive
    /// What the references followed so far expand to, and how far they may.
    private var budget: ExpansionBudget
    /// The damage that ended the budget: the whole file is damage then, not one tab.
    private var exhausted: PlistDamage?
    /// Tabs already read, by UID, with their shape and what each expands to.
    private var tabs: [UInt64: (tab: FirefoxLegacyTab, shape: FirefoxLegacyArchive.Shape, weight: ExpansionWeight)] = [:]
    /// URLs of history lists already read, by UID.
    private var urls: [UInt64: String] = [:]
    /// The first reason Firefox's decoder refuses what was read.
    private(set) var refusal: String?
    /// Whether the tab being read is judged as Firefox's Codable decoder judges it (a dictionary).
    var codable = false

    /// A reader of `archive`, its budget set by the file's size.
    init(archive: KeyedArchive) {
        self.archive = archive
        budget = ExpansionBudget(storedSize: archive.plist.byteCount)
    }

    /// Reads the tabs of `$top.tabs` (the plist object at `index`).
    mutating func read(tabsAt index: Int) throws(PlistDamage) -> FirefoxLegacyArchive {
        let top = archive.plist.topObject
        guard case .uid(let uid) = archive.plist[index] else {
            throw PlistDamage(offset: archive.plist.offset(of: index), reason: "$top.tabs is not a reference to an array of tabs")
        }
        let value = try FirefoxLegacyValue.resolve(uid, in: archive, referrer: top)
        guard case .object(let array) = value, LegacyClass(array) == .collection else {
            throw PlistDamage(offset: archive.plist.offset(of: top), reason: "$top.tabs is \(value.kind), not an array of tabs")
        }
        if !["NSArray", "NSMutableArray"].contains(array.className) {
            refuse("tabs", "\(value.kind), not an array", always: true)
        }
        var result = FirefoxLegacyArchive(shape: .codable, tabs: [])
        var shape: FirefoxLegacyArchive.Shape?
        for (position, element) in try array.elements().enumerated() {
            let path = "tabs[\(position)]"
            do throws(PlistDamage) {
                result.tabs.append(try tab(element, referrer: array.index, path: path, shape: &shape))
            } catch {
                if let exhausted { throw exhausted }
                result.damage.append(PlistDamage(offset: error.offset, reason: "\(path): \(error.reason)"))
            }
        }
        result.shape = shape ?? .codable
        if result.shape == .savedTabObjects {
            result.refusal = FirefoxLegacyArchive.savedTabRefusal
        } else if let damage = result.damage.first {
            result.refusal = "damaged at byte \(damage.offset): \(damage.reason)"
        } else {
            result.refusal = refusal
        }
        return result
    }

    /// The tab `uid`, an element of the tabs array at `referrer`; sets `shape` from the first
    /// element that is a tab.
    private mutating func tab(
        _ uid: UInt64, referrer: Int, path: String, shape: inout FirefoxLegacyArchive.Shape?
    ) throws(PlistDamage) -> FirefoxLegacyTab {
        if let known = tabs[uid] {
            try charge(known.weight, at: known.tab.offset)
            if shape == nil { shape = known.shape }
            if known.shape == .savedTabObjects { refuse(path, "a SavedTab object, not a dictionary", always: true) }
            return known.tab
        }
        let value = try FirefoxLegacyValue.resolve(uid, in: archive, referrer: referrer)
        guard case .object(let object) = value else {
            throw PlistDamage(offset: archive.plist.offset(of: referrer), reason: "\(value.kind), not a tab")
        }
        let isSavedTab = object.className.hasSuffix("SavedTab")
        guard isSavedTab || LegacyClass(object) == .dictionary else {
            throw PlistDamage(offset: object.offset, reason: "\(value.kind), not a SavedTab or a dictionary")
        }
        let tabShape: FirefoxLegacyArchive.Shape = isSavedTab ? .savedTabObjects : .codable
        if shape == nil { shape = tabShape }
        if isSavedTab { refuse(path, "\(value.kind), not a dictionary", always: true) }
        codable = !isSavedTab
        let before = budget.spent
        let tab = try read(try FirefoxLegacyFields(object), path: path)
        var strings = [tab.title, tab.url, tab.faviconURL, tab.uuid, tab.group?.searchTerm, tab.group?.searchURL, tab.group?.nextURL]
        strings.append(tab.group?.historyState)
        try charge(
            ExpansionWeight(objects: ExpansionWeight.tabObjects, bytes: strings.reduce(0) { $0 + ($1?.utf8.count ?? 0) }), at: tab.offset)
        tabs[uid] = (tab, tabShape, budget.spent - before)
        return tab
    }

    /// The fields of one tab, in the order Firefox's Codable decoder reads them (so that the first
    /// refusal is the one it meets first).
    private mutating func read(_ fields: FirefoxLegacyFields, path: String) throws(PlistDamage) -> FirefoxLegacyTab {
        if fields.foreignKeys > 0 { refuse(path, "a dictionary with a key that is not a string") }
        var tab = FirefoxLegacyTab(offset: fields.offset)
        tab.isSelected = try bool(fields, "isSelected", path, required: true) ?? false
        tab.title = try string(fields, "title", path)
        if let value = try field(fields, "url", path) { tab.url = try url(value, "\(path).url") }
        tab.isPrivate = try bool(fields, "isPrivate", path, required: true) ?? false
        if let session = try container(fields, "sessionData", path) {
            let at = "\(path).sessionData"
            tab.currentPage = try signed(session, "currentPage", at, required: true).map { Int(clamping: $0) } ?? 0
            tab.lastUsedTime = try unsigned(session, "lastUsedTime", at, required: true)
            tab.urls = try urlList(session, "urls", at)
        }
        tab.screenshotUUID = try uuid(fields, "screenshotUUID", path)
        tab.faviconURL = try string(fields, "faviconURL", path)
        tab.uuid = try string(fields, "UUID", path)
        if let group = try container(fields, "tabGroupData", path) {
            let at = "\(path).tabGroupData"
            tab.group = FirefoxLegacyTab.Group(
                searchTerm: try string(group, "tabAssociatedSearchTerm", at, required: true),
                searchURL: try string(group, "tabAssociatedSearchUrl", at, required: true),
                nextURL: try string(group, "tabAssociatedNextUrl", at, required: true),
                historyState: try string(group, "tabHistoryCurrentState", at, required: true))
        }
        tab.createdAt = try unsigned(fields, "createdAt", path)
        tab.hasHomeScreenshot = try bool(fields, "hasHomeScreenshot", path, required: true) ?? false
        return tab
    }

    /// The URLs of a history list (an array of URLs), each charged to the budget.
    private mutating func urlList(_ fields: FirefoxLegacyFields, _ key: String, _ path: String) throws(PlistDamage) -> [String] {
        guard let value = try field(fields, key, path, required: true) else { return [] }
        guard case .object(let array) = value, LegacyClass(array) == .collection else {
            refuse("\(path).\(key)", "\(value.kind), not an array of URLs")
            return []
        }
        var result: [String] = []
        for (position, element) in try array.elements().enumerated() {
            let at = "\(path).\(key)[\(position)]"
            let text: String
            if let known = urls[element] {
                text = known
            } else {
                let value = try FirefoxLegacyValue.resolve(element, in: archive, referrer: array.index)
                guard checkClass(value, at), let read = try url(value, at) else { continue }
                text = read
                urls[element] = read
            }
            try charge(ExpansionWeight(objects: 1, bytes: text.utf8.count), at: array.offset)
            result.append(text)
        }
        return result
    }

    /// Adds `weight` to the budget; past it, the damage ends the whole read.
    private mutating func charge(_ weight: ExpansionWeight, at offset: Int) throws(PlistDamage) {
        do throws(PlistDamage) {
            try budget.charge(weight, at: offset)
        } catch {
            exhausted = error
            throw error
        }
    }

    /// Records why Firefox's decoder refuses the value at `path`, when the tab is read as it reads
    /// it (or `always`); only the first reason is kept.
    mutating func refuse(_ path: String, _ reason: String, always: Bool = false) {
        guard codable || always, refusal == nil else { return }
        refusal = "\(path) is \(reason)"
    }
}
