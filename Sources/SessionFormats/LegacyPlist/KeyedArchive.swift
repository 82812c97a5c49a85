/// An NSKeyedArchiver archive (`$archiver`, `$version`, `$top`, `$objects`) over a parsed binary
/// property list: resolves UIDs to `$objects` entries and objects to their class names.
///
/// Every failure is a `PlistDamage` at the byte offset of the object that holds the bad value.
public struct KeyedArchive: Sendable {
    /// The property list the archive is stored in.
    public let plist: BinaryPlist
    /// The plist object index of each `$objects` entry.
    let table: [Int]
    /// The members of the `$top` dictionary: name to plist object index.
    package let top: [String: Int]

    /// Reads the archive structure of `plist`.
    public init(plist: BinaryPlist) throws(PlistDamage) {
        self.plist = plist
        let topOffset = plist.offset(of: plist.topObject)
        guard case .dictionary(let keys, let values) = plist[plist.topObject] else {
            throw PlistDamage(
                offset: topOffset, reason: "not an NSKeyedArchiver archive: the top object is a \(plist[plist.topObject].kindName)")
        }
        let members = KeyedArchive.members(keys, values, in: plist)
        guard let archiver = members["$archiver"], case .string("NSKeyedArchiver") = plist[archiver] else {
            throw PlistDamage(offset: topOffset, reason: "not an NSKeyedArchiver archive: no $archiver \"NSKeyedArchiver\"")
        }
        guard let objects = members["$objects"], case .array(let table) = plist[objects] else {
            throw PlistDamage(offset: topOffset, reason: "not an NSKeyedArchiver archive: no $objects array")
        }
        guard let topIndex = members["$top"], case .dictionary(let topKeys, let topValues) = plist[topIndex] else {
            throw PlistDamage(offset: topOffset, reason: "not an NSKeyedArchiver archive: no $top dictionary")
        }
        self.table = table
        self.top = KeyedArchive.members(topKeys, topValues, in: plist)
    }

    /// The number of `$objects` entries.
    public var objectCount: Int { table.count }

    /// The UID stored under a `$top` key (usually `root`).
    public func topReference(_ key: String = "root") throws(PlistDamage) -> UInt64 {
        guard let index = top[key] else {
            throw PlistDamage(offset: plist.offset(of: plist.topObject), reason: "the archive's $top has no \"\(key)\"")
        }
        guard case .uid(let uid) = plist[index] else {
            throw PlistDamage(offset: plist.offset(of: index), reason: "$top.\(key) is a \(plist[index].kindName), not a UID")
        }
        return uid
    }

    /// The plist object index of the `$objects` entry `uid`; `referrer` is the object holding the reference.
    public func entry(_ uid: UInt64, referrer: Int) throws(PlistDamage) -> Int {
        guard uid < UInt64(table.count) else {
            throw PlistDamage(
                offset: plist.offset(of: referrer), reason: "reference to archive object \(uid), but $objects has \(table.count)")
        }
        return table[Int(uid)]
    }

    /// The archived object `uid` with its class, or nil for `$null` (UID 0).
    public func object(_ uid: UInt64, referrer: Int) throws(PlistDamage) -> ArchivedObject? {
        guard uid != 0 else { return nil }
        let index = try entry(uid, referrer: referrer)
        guard case .dictionary(let keys, let values) = plist[index] else {
            throw PlistDamage(
                offset: plist.offset(of: index), reason: "archive object \(uid) is a \(plist[index].kindName), expected an archived object")
        }
        let fields = KeyedArchive.members(keys, values, in: plist)
        guard let classRef = fields["$class"], case .uid(let classUID) = plist[classRef] else {
            throw PlistDamage(offset: plist.offset(of: index), reason: "archive object \(uid) has no $class")
        }
        let classIndex = try entry(classUID, referrer: index)
        guard case .dictionary(let classKeys, let classValues) = plist[classIndex] else {
            throw PlistDamage(
                offset: plist.offset(of: classIndex),
                reason: "the class of archive object \(uid) is a \(plist[classIndex].kindName), not a class description")
        }
        let classFields = KeyedArchive.members(classKeys, classValues, in: plist)
        guard let nameIndex = classFields["$classname"], case .string(let name) = plist[nameIndex] else {
            throw PlistDamage(offset: plist.offset(of: classIndex), reason: "the class of archive object \(uid) has no $classname")
        }
        var chain: [String] = []
        if let chainIndex = classFields["$classes"], case .array(let refs) = plist[chainIndex] {
            for ref in refs { if case .string(let className) = plist[ref] { chain.append(className) } }
        }
        return ArchivedObject(archive: self, uid: uid, index: index, className: name, classChain: chain, fields: fields)
    }

    /// Name-to-value members of a dictionary object, skipping keys that are not strings.
    static func members(_ keys: [Int], _ values: [Int], in plist: BinaryPlist) -> [String: Int] {
        var result: [String: Int] = [:]
        for (key, value) in zip(keys, values) {
            if case .string(let name) = plist[key], result[name] == nil { result[name] = value }
        }
        return result
    }
}

extension KeyedArchive {
    /// The plain value of `$objects` entry `uid` (a string, number, boolean or data), nil for `$null`.
    public func scalar(_ uid: UInt64, referrer: Int) throws(PlistDamage) -> PlistObject? {
        guard uid != 0 else { return nil }
        return plist[try entry(uid, referrer: referrer)]
    }
}
