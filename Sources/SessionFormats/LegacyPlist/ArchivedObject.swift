/// One object of a keyed archive: its class and its keyed fields, with typed accessors that accept
/// the forms NSKeyedArchiver uses (scalars inline, objects through UIDs, `NS.string`/`NS.data` wrappers).
public struct ArchivedObject: Sendable {
    public let archive: KeyedArchive
    /// The object's UID (its index in `$objects`).
    public let uid: UInt64
    /// The plist object index of the object's dictionary.
    public let index: Int
    /// `$classname` of the object's class.
    public let className: String
    /// `$classes` of the object's class, most derived first.
    public let classChain: [String]
    /// Field name to plist object index.
    package let fields: [String: Int]

    /// The byte offset of the object in the file.
    public var offset: Int { archive.plist.offset(of: index) }

    /// True when the object has a value for `key`.
    public func has(_ key: String) -> Bool { fields[key] != nil }

    /// The field names, sorted.
    public var keys: [String] { fields.keys.sorted() }

    /// The value of `key`, following a UID to its `$objects` entry; nil when absent or `$null`.
    func resolved(_ key: String) throws(PlistDamage) -> (index: Int, object: PlistObject)? {
        guard let index = fields[key] else { return nil }
        guard case .uid(let uid) = archive.plist[index] else { return (index, archive.plist[index]) }
        guard uid != 0 else { return nil }
        let target = try archive.entry(uid, referrer: self.index)
        return (target, archive.plist[target])
    }

    func wrongType(_ key: String, _ found: PlistObject, expected: String) -> PlistDamage {
        PlistDamage(offset: offset, reason: "\(className).\(key) is a \(found.kindName), expected \(expected)")
    }

    /// An integer field (booleans count as 0 and 1).
    public func integer(_ key: String) throws(PlistDamage) -> Int64? {
        guard let (_, object) = try resolved(key) else { return nil }
        switch object {
        case .integer(let number): return number
        case .bool(let flag): return flag ? 1 : 0
        case .largeInteger: throw PlistDamage(offset: offset, reason: "\(className).\(key) does not fit in 64 bits")
        default: throw wrongType(key, object, expected: "an integer")
        }
    }

    /// A boolean field (integers count as true when non-zero).
    public func bool(_ key: String) throws(PlistDamage) -> Bool? {
        guard let (_, object) = try resolved(key) else { return nil }
        switch object {
        case .bool(let flag): return flag
        case .integer(let number): return number != 0
        default: throw wrongType(key, object, expected: "a boolean")
        }
    }

    /// A byte-string field: data inline or archived (`NS.data`), or a string's UTF-8 bytes.
    public func bytes(_ key: String) throws(PlistDamage) -> [UInt8]? {
        guard let (index, object) = try resolved(key) else { return nil }
        switch object {
        case .data(let bytes): return Array(bytes)
        case .string(let text): return Array(text.utf8)
        case .dictionary:
            switch try wrappedScalar(index, key: key, ["NS.data", "NS.bytes", "NS.string"]) {
            case .data(let bytes): return Array(bytes)
            case .string(let text): return Array(text.utf8)
            default: throw wrongType(key, object, expected: "data")
            }
        default: throw wrongType(key, object, expected: "data")
        }
    }

    /// A string field: a plain string object, an archived `NS.string`, or UTF-8 data.
    public func string(_ key: String) throws(PlistDamage) -> String? {
        guard let (index, object) = try resolved(key) else { return nil }
        switch object {
        case .string(let text): return text
        case .data(let bytes): return String(decoding: bytes, as: UTF8.self)
        case .dictionary:
            switch try wrappedScalar(index, key: key, ["NS.string", "NS.bytes", "NS.data"]) {
            case .string(let text): return text
            case .data(let bytes): return String(decoding: bytes, as: UTF8.self)
            default: throw wrongType(key, object, expected: "a string")
            }
        default: throw wrongType(key, object, expected: "a string")
        }
    }

    /// The UID stored under `key`, or nil when absent or `$null`.
    public func reference(_ key: String) throws(PlistDamage) -> UInt64? {
        guard let index = fields[key] else { return nil }
        guard case .uid(let uid) = archive.plist[index] else {
            throw wrongType(key, archive.plist[index], expected: "an object reference")
        }
        return uid == 0 ? nil : uid
    }

    /// The archived object referred to by `key`, or nil when absent or `$null`.
    public func object(_ key: String) throws(PlistDamage) -> ArchivedObject? {
        guard let uid = try reference(key) else { return nil }
        return try archive.object(uid, referrer: index)
    }

    /// The elements (UIDs) of an archived NSArray, NSSet or NSOrderedSet.
    public func elements() throws(PlistDamage) -> [UInt64] {
        guard let index = fields["NS.objects"] else {
            throw PlistDamage(offset: offset, reason: "\(className) \(uid) has no NS.objects")
        }
        return try uids(at: index, what: "NS.objects")
    }

    /// The key and value UIDs of an archived NSDictionary.
    public func dictionaryEntries() throws(PlistDamage) -> [(key: UInt64, value: UInt64)] {
        guard let keysIndex = fields["NS.keys"], let valuesIndex = fields["NS.objects"] else {
            throw PlistDamage(offset: offset, reason: "\(className) \(uid) has no NS.keys and NS.objects")
        }
        let keys = try uids(at: keysIndex, what: "NS.keys")
        let values = try uids(at: valuesIndex, what: "NS.objects")
        guard keys.count == values.count else {
            throw PlistDamage(offset: offset, reason: "\(className) \(uid) has \(keys.count) keys but \(values.count) values")
        }
        return Array(zip(keys, values)).map { (key: $0.0, value: $0.1) }
    }

    private func uids(at index: Int, what: String) throws(PlistDamage) -> [UInt64] {
        guard case .array(let refs) = archive.plist[index] else {
            throw wrongType(what, archive.plist[index], expected: "an array")
        }
        var result: [UInt64] = []
        result.reserveCapacity(refs.count)
        for ref in refs {
            guard case .uid(let uid) = archive.plist[ref] else {
                throw PlistDamage(
                    offset: archive.plist.offset(of: ref),
                    reason: "an element of \(className).\(what) is a \(archive.plist[ref].kindName), not a UID")
            }
            result.append(uid)
        }
        return result
    }

    /// The scalar inside an archived NSString/NSData wrapper (`NS.string`, `NS.data`, ...), one level
    /// deep only, so that a wrapper referring to itself cannot recurse.
    private func wrappedScalar(_ index: Int, key: String, _ names: [String]) throws(PlistDamage) -> PlistObject? {
        guard let uid = try reference(key), let wrapper = try archive.object(uid, referrer: self.index) else { return nil }
        for name in names {
            if let (_, object) = try wrapper.resolved(name) { return object }
        }
        return nil
    }
}
