import SessionForensics

/// Where the parts of a session_metadata.pb lie, so that findings can name the byte they are about.
///
/// Only where each list item starts is kept (4 bytes an item, for lists of millions of items); an
/// item's inner offsets are read again from the bytes when a finding asks for them.
struct ListLayout: Sendable {
    /// Offsets within one list item (`WebStateListItemStorage`); nil where the field is absent.
    ///
    /// Kept in 32 bits each (a file read whole is under 1 GiB; -1: absent), 20 bytes an item:
    /// every restored tab's check carries one.
    struct Item: Sendable {
        private var offsets: (start: Int32, identifier: Int32, opener: Int32, itemCount: Int32, activePage: Int32)

        init(start: Int, identifier: Int? = nil, opener: Int? = nil, itemCount: Int? = nil, activePage: Int? = nil) {
            offsets = (
                Int32(clamping: start), Item.stored(identifier), Item.stored(opener), Item.stored(itemCount), Item.stored(activePage)
            )
        }

        var start: Int { Int(offsets.start) }
        var identifier: Int? { Item.read(offsets.identifier) }
        var opener: Int? { Item.read(offsets.opener) }
        var itemCount: Int? { Item.read(offsets.itemCount) }
        var activePage: Int? { Item.read(offsets.activePage) }

        private static func read(_ value: Int32) -> Int? { value < 0 ? nil : Int(value) }
        private static func stored(_ value: Int?) -> Int32 { value.map { Int32(clamping: $0) } ?? -1 }
    }

    /// Offsets within one tab group (`TabGroupStorage`).
    struct Group: Sendable {
        var start: Int
        var range: Int?
        var id: Int?
    }

    /// The bytes the offsets point into.
    private let bytes: [UInt8]
    /// Where each item's field starts (a file read whole is under 1 GiB, so 32 bits suffice).
    private var itemStarts: [Int32] = []
    var activeIndex: Int?
    var pinnedCount: Int?
    var groups: [Group] = []

    init() { bytes = [] }

    /// Items known by where they start only (a legacy plist's tab records), nothing inside them.
    init(itemStarts: [Int]) {
        bytes = []
        self.itemStarts = itemStarts.map { Int32(clamping: $0) }
    }

    /// Walks the bytes of a session_metadata.pb (damaged ones too, up to the damage).
    init(_ bytes: [UInt8]) {
        self.bytes = bytes
        var starts: [Int32] = []
        var activeIndex: Int?
        var pinnedCount: Int?
        var groups: [Group] = []
        WireField.forEachField(of: bytes, in: 0..<bytes.count) { field in
            switch field.number {
            case 1: starts.append(Int32(clamping: field.start))
            case 2: activeIndex = field.start
            case 3: pinnedCount = field.start
            case 4:
                var group = Group(start: field.start)
                field.forEachSubfield(of: bytes) { inner in
                    if inner.number == 1 { group.range = inner.start }
                    if inner.number == 5 { group.id = inner.start }
                }
                groups.append(group)
            default: break
            }
        }
        itemStarts = starts
        self.activeIndex = activeIndex
        self.pinnedCount = pinnedCount
        self.groups = groups
    }

    /// The offsets of item `index`, or nil when the layout has none.
    func item(_ index: Int) -> Item? {
        guard itemStarts.indices.contains(index) else { return nil }
        let start = Int(itemStarts[index])
        guard let field = WireField.field(of: bytes, at: start, end: bytes.count) else { return Item(start: start) }
        var identifier: Int?
        var opener: Int?
        var itemCount: Int?
        var activePage: Int?
        field.forEachSubfield(of: bytes) { inner in
            switch inner.number {
            case 1: identifier = inner.value
            case 2: opener = inner.start
            case 3:
                inner.forEachSubfield(of: bytes) { metadata in
                    if metadata.number == 3 { activePage = metadata.start }
                    if metadata.number == 4 { itemCount = metadata.value }
                }
            default: break
            }
        }
        return Item(start: start, identifier: identifier, opener: opener, itemCount: itemCount, activePage: activePage)
    }

    /// The offsets of group `index`.
    func group(_ index: Int) -> Group? { groups.indices.contains(index) ? groups[index] : nil }
}
