/// Builds an NSKeyedArchiver archive: `$objects` with `$null` first, objects numbered in the order
/// they are reserved (the root is 1), class descriptions and equal strings stored once.
struct KeyedArchiveBuilder {
    private(set) var objects: [PlistValue] = [.string("$null")]
    private var classes: [String: UInt64] = [:]
    private var values: [PlistValue: UInt64] = [:]

    /// Reserves the next UID for an object whose fields are set later.
    mutating func reserve() -> UInt64 {
        objects.append(.null)
        return UInt64(objects.count - 1)
    }

    /// Sets a reserved object's keyed fields and class.
    mutating func set(_ uid: UInt64, className: String, _ fields: [String: PlistValue]) {
        var members = fields
        members["$class"] = .uid(classReference(className))
        objects[Int(uid)] = .dictionary(members)
    }

    /// The UID of a plain value (string, number, data), stored once however often it is used.
    mutating func value(_ value: PlistValue) -> UInt64 {
        if let uid = values[value] { return uid }
        objects.append(value)
        let uid = UInt64(objects.count - 1)
        values[value] = uid
        return uid
    }

    /// The UID of a string object.
    mutating func string(_ text: String) -> UInt64 { value(.string(text)) }

    /// An archived NSArray (or NSSet) of the given objects.
    mutating func array(_ elements: [UInt64], className: String = "NSArray") -> UInt64 {
        let uid = reserve()
        set(uid, className: className, ["NS.objects": .array(elements.map(PlistValue.uid))])
        return uid
    }

    /// An archived NSDictionary with string keys, in the given order.
    mutating func dictionary(_ entries: [(String, PlistValue)]) -> UInt64 {
        let uid = reserve()
        let keys = entries.map { PlistValue.uid(string($0.0)) }
        let objects = entries.map { entry -> PlistValue in
            if case .uid = entry.1 { return entry.1 }
            return .uid(value(entry.1))
        }
        set(uid, className: "NSDictionary", ["NS.keys": .array(keys), "NS.objects": .array(objects)])
        return uid
    }

    /// The whole archive with `root` as `$top.root`.
    func finish(root: UInt64) -> PlistValue {
        .dictionary([
            "$archiver": .string("NSKeyedArchiver"),
            "$version": .integer(100_000),
            "$top": .dictionary(["root": .uid(root)]),
            "$objects": .array(objects)
        ])
    }

    private mutating func classReference(_ name: String) -> UInt64 {
        if let uid = classes[name] { return uid }
        objects.append(.dictionary(["$classname": .string(name), "$classes": .array([.string(name), .string("NSObject")])]))
        let uid = UInt64(objects.count - 1)
        classes[name] = uid
        return uid
    }
}
