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
///
/// What most tabs lack (an opener, pinning, a history not read, unknown fields, a legacy stable
/// identifier) is kept out of line, in one shared box, so that a list of millions of tabs costs
/// what its titles, URLs and times cost; the box is replaced, never changed, so a tab is still a
/// value.
public struct Tab: Sendable, Hashable, Codable {
    public var id: TabID
    /// Number of navigation items, as the metadata says (0 makes Chrome drop the tab).
    public var navigationItemCount: Int32
    public var title: String
    public var url: String
    public var creationTime: Timestamp
    public var lastActiveTime: Timestamp
    /// The fields below; nil when every one is empty.
    private var extras: TabExtras?

    /// The tab that opened this one, when it is known.
    public var opener: Opener? {
        get { extras?.fields.opener }
        set { update { $0.opener = newValue } }
    }
    /// Whether the tab is among the window's first `pinnedCount` tabs.
    public var pinned: Bool {
        get { extras?.fields.pinned ?? false }
        set { update { $0.pinned = newValue } }
    }

    /// The contents of data.pb, when it was read; nil when not asked for, missing or unreadable.
    public var history: TabHistory? {
        get { extras?.history }
        set { update { $0.history = newValue } }
    }
    /// Unknown fields of the list item (`WebStateListItemStorage`), kept as raw bytes.
    public var unknownFields: [UInt8] {
        get { extras?.unknownFields ?? [] }
        set { update { $0.unknownFields = newValue } }
    }
    /// Unknown fields of the item's metadata (`WebStateMetadataStorage`), kept as raw bytes.
    public var metadataUnknownFields: [UInt8] {
        get { extras?.metadataUnknownFields ?? [] }
        set { update { $0.metadataUnknownFields = newValue } }
    }
    /// The tab's UUID string where its browser names tabs so: Chrome's legacy format
    /// (`stableIdentifier`) and Firefox for iOS (the tab's `id`); nil for Chrome's optimized format.
    public var stableIdentifier: String? {
        get { extras?.stableIdentifier }
        set { update { $0.stableIdentifier = newValue } }
    }
    /// Whether the tab is private where its browser marks each tab (Firefox for iOS keeps private
    /// and regular tabs in one window); Chrome's private tabs are a whole incognito session instead.
    public var incognito: Bool {
        get { extras?.fields.incognito ?? false }
        set { update { $0.incognito = newValue } }
    }
    /// When the browser wrote the tab's last activity on a monotonic clock (Chromium's
    /// `base::TimeTicks`, until December 2023): microseconds since the machine started, which is
    /// no date (`lastActiveTime` is then null); nil when the time is a date or there is none.
    public var lastActiveSinceBoot: Int64? {
        get { extras?.fields.lastActiveSinceBoot }
        set { update { $0.lastActiveSinceBoot = newValue } }
    }
    /// Whether the tab was recovered from what its browser does not read (records past damage in
    /// a Chromium desktop session file): forensic output marks it so.
    public var salvaged: Bool {
        get { extras?.fields.salvaged ?? false }
        set { update { $0.salvaged = newValue } }
    }

    public init(
        id: TabID, title: String = "", url: String = "", creationTime: Timestamp = .null,
        lastActiveTime: Timestamp = .null, navigationItemCount: Int32 = 0, opener: Opener? = nil,
        pinned: Bool = false, history: TabHistory? = nil, unknownFields: [UInt8] = [],
        metadataUnknownFields: [UInt8] = [], stableIdentifier: String? = nil, incognito: Bool = false
    ) {
        self.id = id
        self.title = title
        self.url = url
        self.creationTime = creationTime
        self.lastActiveTime = lastActiveTime
        self.navigationItemCount = navigationItemCount
        let fields = TabExtras.Fields(
            opener: opener, pinned: pinned, history: history, unknownFields: unknownFields,
            metadataUnknownFields: metadataUnknownFields, stableIdentifier: stableIdentifier, incognito: incognito)
        extras = fields.isEmpty ? nil : TabExtras(fields)
    }

    /// The coded form is flat, one key per field, as before the rare fields moved out of line.
    private enum CodingKeys: String, CodingKey {
        case id, title, url, creationTime, lastActiveTime, navigationItemCount, opener, pinned, history
        case unknownFields, metadataUnknownFields, stableIdentifier, incognito, salvaged
    }

    public init(from decoder: any Decoder) throws {
        let values = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            id: try values.decode(TabID.self, forKey: .id),
            title: try values.decodeIfPresent(String.self, forKey: .title) ?? "",
            url: try values.decodeIfPresent(String.self, forKey: .url) ?? "",
            creationTime: try values.decodeIfPresent(Timestamp.self, forKey: .creationTime) ?? .null,
            lastActiveTime: try values.decodeIfPresent(Timestamp.self, forKey: .lastActiveTime) ?? .null,
            navigationItemCount: try values.decodeIfPresent(Int32.self, forKey: .navigationItemCount) ?? 0,
            opener: try values.decodeIfPresent(Opener.self, forKey: .opener),
            pinned: try values.decodeIfPresent(Bool.self, forKey: .pinned) ?? false,
            history: try values.decodeIfPresent(TabHistory.self, forKey: .history),
            unknownFields: try values.decodeIfPresent([UInt8].self, forKey: .unknownFields) ?? [],
            metadataUnknownFields: try values.decodeIfPresent([UInt8].self, forKey: .metadataUnknownFields) ?? [],
            stableIdentifier: try values.decodeIfPresent(String.self, forKey: .stableIdentifier),
            incognito: try values.decodeIfPresent(Bool.self, forKey: .incognito) ?? false)
        salvaged = try values.decodeIfPresent(Bool.self, forKey: .salvaged) ?? false
    }

    public func encode(to encoder: any Encoder) throws {
        var values = encoder.container(keyedBy: CodingKeys.self)
        try values.encode(id, forKey: .id)
        try values.encode(title, forKey: .title)
        try values.encode(url, forKey: .url)
        try values.encode(creationTime, forKey: .creationTime)
        try values.encode(lastActiveTime, forKey: .lastActiveTime)
        try values.encode(navigationItemCount, forKey: .navigationItemCount)
        try values.encodeIfPresent(opener, forKey: .opener)
        try values.encode(pinned, forKey: .pinned)
        try values.encodeIfPresent(history, forKey: .history)
        try values.encode(unknownFields, forKey: .unknownFields)
        try values.encode(metadataUnknownFields, forKey: .metadataUnknownFields)
        try values.encodeIfPresent(stableIdentifier, forKey: .stableIdentifier)
        if incognito { try values.encode(true, forKey: .incognito) }
        if salvaged { try values.encode(true, forKey: .salvaged) }
    }

    /// Replaces the box with one holding the changed fields (none when they are all empty).
    private mutating func update(_ change: (inout TabExtras.Fields) -> Void) {
        var fields = extras?.fields ?? TabExtras.Fields()
        change(&fields)
        extras = fields.isEmpty ? nil : TabExtras(fields)
    }

    /// True when the id is one Chrome accepts (a positive int32).
    public var hasValidID: Bool { id > 0 }

    /// True when the list entry names a tab: a valid id, or a URL or title a tab can be rebuilt
    /// from. An entry that names none (an empty one, say) is never restored by Chrome and holds
    /// nothing repair could save.
    public var namesATab: Bool { hasValidID || !url.isEmpty || !title.isEmpty }

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

/// The fields of a tab that most tabs leave empty, in an immutable box compared by value.
final class TabExtras: Sendable, Hashable {
    struct Fields: Sendable, Hashable {
        var opener: Opener?
        var pinned = false
        var history: TabHistory?
        var unknownFields: [UInt8] = []
        var metadataUnknownFields: [UInt8] = []
        var stableIdentifier: String?
        var incognito = false
        var salvaged = false
        var lastActiveSinceBoot: Int64?

        var isEmpty: Bool {
            opener == nil && !pinned && history == nil && unknownFields.isEmpty && metadataUnknownFields.isEmpty
                && stableIdentifier == nil && !incognito && !salvaged && lastActiveSinceBoot == nil
        }
    }

    let fields: Fields

    init(_ fields: Fields) { self.fields = fields }

    var history: TabHistory? { fields.history }
    var unknownFields: [UInt8] { fields.unknownFields }
    var metadataUnknownFields: [UInt8] { fields.metadataUnknownFields }
    var stableIdentifier: String? { fields.stableIdentifier }

    static func == (lhs: TabExtras, rhs: TabExtras) -> Bool { lhs === rhs || lhs.fields == rhs.fields }
    func hash(into hasher: inout Hasher) { hasher.combine(fields) }

}
