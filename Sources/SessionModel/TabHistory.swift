/// What a tab's data.pb holds: its navigation history and per-tab settings (`web.proto.WebStateStorage`).
///
/// It is read only when asked for, as Chrome realizes a tab only when it is used.
public struct TabHistory: Sendable, Hashable, Codable {
    /// Whether the tab was opened by another page (`has_opener`).
    public var hasOpener: Bool
    /// The tab's user agent setting.
    public var userAgent: UserAgent
    /// Index of the last committed item, or -1 when there is none.
    public var lastCommittedIndex: Int32
    /// The back/forward list, oldest first.
    public var items: [NavigationItem]
    /// Cached certificate decisions.
    public var certificates: [CertificateRecord]
    /// Fields of a newer Chrome at the top level of data.pb, kept as raw bytes.
    public var unknownFields: [UInt8]
    /// Unknown fields inside `navigation`, kept as raw bytes.
    public var navigationUnknownFields: [UInt8]

    public init(
        hasOpener: Bool = false, userAgent: UserAgent = .automatic, lastCommittedIndex: Int32 = -1,
        items: [NavigationItem] = [], certificates: [CertificateRecord] = [],
        unknownFields: [UInt8] = [], navigationUnknownFields: [UInt8] = []
    ) {
        self.hasOpener = hasOpener
        self.userAgent = userAgent
        self.lastCommittedIndex = lastCommittedIndex
        self.items = items
        self.certificates = certificates
        self.unknownFields = unknownFields
        self.navigationUnknownFields = navigationUnknownFields
    }

    /// The last committed item, when the index points into the list.
    public var lastCommittedItem: NavigationItem? {
        let index = Int(lastCommittedIndex)
        return items.indices.contains(index) ? items[index] : nil
    }
}
