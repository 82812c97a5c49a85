/// A tab's identifier (Chrome's WebStateID): a positive int32; 0 and negatives are invalid.
public typealias TabID = Int32

/// The tab that opened a tab: its index in the same window and the navigation index it was on.
public struct Opener: Sendable, Hashable, Codable {
    public var index: Int32
    public var navigationIndex: Int32
    public init(index: Int32, navigationIndex: Int32) {
        self.index = index
        self.navigationIndex = navigationIndex
    }
}

/// A tab as a window lists it: the metadata Chrome keeps in session_metadata.pb, plus its
/// history once data.pb has been read.
public struct Tab: Sendable, Hashable, Codable {
    public var id: TabID
    public var title: String
    public var url: String
    public var creationTime: Timestamp
    public var lastActiveTime: Timestamp
    /// Number of navigation items, as the metadata says (0 makes Chrome drop the tab).
    public var navigationItemCount: Int32
    public var opener: Opener?
    /// Whether the tab is among the window's first `pinnedCount` tabs.
    public var pinned: Bool
    /// The contents of data.pb, when it was read; nil when not asked for, missing or unreadable.
    public var history: TabHistory?
    /// Unknown fields of the list item (`WebStateListItemStorage`), kept as raw bytes.
    public var unknownFields: [UInt8]
    /// Unknown fields of the item's metadata (`WebStateMetadataStorage`), kept as raw bytes.
    public var metadataUnknownFields: [UInt8]
    /// The legacy format's `stableIdentifier` (a UUID string); nil for tabs read from the optimized format.
    public var stableIdentifier: String?

    public init(
        id: TabID, title: String = "", url: String = "", creationTime: Timestamp = .null,
        lastActiveTime: Timestamp = .null, navigationItemCount: Int32 = 0, opener: Opener? = nil,
        pinned: Bool = false, history: TabHistory? = nil, unknownFields: [UInt8] = [],
        metadataUnknownFields: [UInt8] = [], stableIdentifier: String? = nil
    ) {
        self.id = id
        self.title = title
        self.url = url
        self.creationTime = creationTime
        self.lastActiveTime = lastActiveTime
        self.navigationItemCount = navigationItemCount
        self.opener = opener
        self.pinned = pinned
        self.history = history
        self.unknownFields = unknownFields
        self.metadataUnknownFields = metadataUnknownFields
        self.stableIdentifier = stableIdentifier
    }

    /// True when the id is one Chrome accepts (a positive int32).
    public var hasValidID: Bool { id > 0 }

    /// The tab directory name of an id: lower-case hex, at least eight digits.
    public static func directoryName(for id: TabID) -> String {
        // A UInt32 has at most eight hex digits, so the name is always exactly eight.
        let value = UInt32(bitPattern: id)
        return String(unsafeUninitializedCapacity: 8) { buffer in
            for position in 0..<8 {
                let digit = UInt8(truncatingIfNeeded: value >> (28 - 4 * UInt32(position))) & 0xF
                buffer[position] = digit < 10 ? 48 + digit : 87 + digit
            }
            return 8
        }
    }

    /// Parses a tab directory name back into an id (nil when it is not 8+ lower-case hex digits of a positive id).
    public static func id(fromDirectoryName name: String) -> TabID? {
        guard name.count >= 8, name.count <= 16,
              name.utf8.allSatisfy({ (48...57).contains($0) || (97...102).contains($0) }),
              let value = UInt64(name, radix: 16), value > 0, value <= UInt64(Int32.max)
        else { return nil }
        return Int32(value)
    }
}
