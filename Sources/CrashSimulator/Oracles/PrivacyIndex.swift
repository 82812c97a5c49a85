/// The incognito strings (URLs and titles) that must be gone from disk once a close-all-incognito
/// save was acknowledged, grouped by the save that closed them, and a search for them in file contents.
public struct PrivacyIndex: Sendable {
    /// The strings of each group (each close-all-incognito), as UTF-8 bytes; at most 64 groups.
    public private(set) var groups: [[[UInt8]]] = []

    /// Shortest string worth searching for (shorter ones match by chance).
    public static let minimumLength = 8

    public init() {}

    /// Adds a group: the incognito strings closed by one acknowledged save, minus those that also
    /// appear in `keep` (regular tabs and incognito tabs still open) or inside one of them.
    /// Returns the group's number, or nil when nothing is left to search for or 64 groups exist.
    public mutating func addGroup(closing strings: Set<String>, keeping keep: Set<String>) -> Int? {
        guard groups.count < 64 else { return nil }
        let kept = keep.map { Array($0.utf8) }
        let group = strings.map { Array($0.utf8) }.filter { candidate in
            candidate.count >= PrivacyIndex.minimumLength && !kept.contains { PrivacyIndex.contains($0, candidate) }
        }.sorted { $0.lexicographicallyPrecedes($1) }
        guard !group.isEmpty else { return nil }
        groups.append(group)
        return groups.count - 1
    }

    /// The groups (bit mask) some of whose strings occur in `bytes`.
    public func groupsFound(in bytes: [UInt8]) -> UInt64 {
        var mask: UInt64 = 0
        for (number, group) in groups.enumerated() where group.contains(where: { PrivacyIndex.contains(bytes, $0) }) {
            mask |= UInt64(1) << UInt64(number)
        }
        return mask
    }

    /// The first string of group `number` found in `bytes`.
    public func firstString(of number: Int, in bytes: [UInt8]) -> String? {
        guard groups.indices.contains(number) else { return nil }
        return groups[number].first { PrivacyIndex.contains(bytes, $0) }.map { String(decoding: $0, as: UTF8.self) }
    }

    /// Whether `needle` occurs in `haystack`.
    static func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
        guard let first = needle.first, needle.count <= haystack.count else { return needle.isEmpty }
        return haystack.withUnsafeBufferPointer { hay in
            needle.withUnsafeBufferPointer { pin in
                var index = 0
                let last = hay.count - pin.count
                while index <= last {
                    if hay[index] == first {
                        var match = 1
                        while match < pin.count && hay[index + match] == pin[match] { match += 1 }
                        if match == pin.count { return true }
                    }
                    index += 1
                }
                return false
            }
        }
    }
}
