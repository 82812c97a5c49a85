extension BinaryPlist {
    /// The value tree of the top object.
    public func value() throws(PlistDamage) -> PlistValue { try value(at: topObject) }

    /// The value tree of one object; shared objects are built once, and depth is bounded.
    public func value(at index: Int) throws(PlistDamage) -> PlistValue {
        var built: [Int: PlistValue] = [:]
        return try build(index, depth: 0, &built)
    }

    private func build(_ index: Int, depth: Int, _ built: inout [Int: PlistValue]) throws(PlistDamage) -> PlistValue {
        if let value = built[index] { return value }
        guard depth <= BinaryPlistReader.maxDepth else {
            throw PlistDamage(offset: offset(of: index), reason: "containers nested deeper than \(BinaryPlistReader.maxDepth) levels")
        }
        let value: PlistValue
        switch self[index] {
        case .null: value = .null
        case .bool(let flag): value = .bool(flag)
        case .integer(let number): value = .integer(number)
        case .largeInteger(let raw): value = .largeInteger(raw)
        case .real(let number): value = .real(number)
        case .date(let seconds): value = .date(seconds)
        case .data(let bytes): value = .data(Array(bytes))
        case .string(let text): value = .string(text)
        case .uid(let uid): value = .uid(uid)
        case .array(let refs), .set(let refs):
            var elements: [PlistValue] = []
            for ref in refs { elements.append(try build(ref, depth: depth + 1, &built)) }
            if case .set = self[index] { value = .set(elements) } else { value = .array(elements) }
        case .dictionary(let keys, let values):
            var members: [String: PlistValue] = [:]
            for (key, member) in zip(keys, values) {
                guard case .string(let name) = self[key] else {
                    throw PlistDamage(offset: offset(of: key), reason: "dictionary key is a \(self[key].kindName), not a string")
                }
                members[name] = try build(member, depth: depth + 1, &built)
            }
            value = .dictionary(members)
        case .unread:
            throw PlistDamage(offset: offset(of: index), reason: "object \(index) was not read")
        }
        built[index] = value
        return value
    }
}

extension BinaryPlist {
    /// The object a dictionary holds under `key` (the last of several, as the value tree keeps
    /// it); nil when `index` is no dictionary or has no such key.
    public func member(of index: Int, _ key: String) -> Int? {
        guard case .dictionary(let keys, let values) = self[index] else { return nil }
        var found: Int?
        for (name, value) in zip(keys, values) {
            if case .string(let text) = self[name], text == key { found = value }
        }
        return found
    }

    /// Throws, as building the value tree would, at the first dictionary key that is not a string
    /// (for a reader that looks keys up in the objects instead of building the tree).
    public func checkKeysAreStrings() throws(PlistDamage) {
        for object in objects {
            guard case .dictionary(let keys, _) = object else { continue }
            for key in keys {
                guard case .string = self[key] else {
                    throw PlistDamage(offset: offset(of: key), reason: "dictionary key is a \(self[key].kindName), not a string")
                }
            }
        }
    }
}
