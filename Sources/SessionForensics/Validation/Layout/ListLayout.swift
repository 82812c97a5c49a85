/// Where the parts of a session_metadata.pb lie, so that findings can name the byte they are about.
struct ListLayout: Sendable {
    /// Offsets within one list item (`WebStateListItemStorage`).
    struct Item: Sendable {
        var start: Int
        var identifier: Int?
        var opener: Int?
        var itemCount: Int?
        var activePage: Int?
    }

    /// Offsets within one tab group (`TabGroupStorage`).
    struct Group: Sendable {
        var start: Int
        var range: Int?
        var id: Int?
    }

    var items: [Item] = []
    var activeIndex: Int?
    var pinnedCount: Int?
    var groups: [Group] = []

    init() {}

    /// Walks the bytes of a session_metadata.pb (damaged ones too, up to the damage).
    init(_ bytes: [UInt8]) {
        WireField.forEachField(of: bytes, in: 0..<bytes.count) { field in
            switch field.number {
            case 1: items.append(ListLayout.item(field, bytes))
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
    }

    private static func item(_ field: WireField, _ bytes: [UInt8]) -> Item {
        var item = Item(start: field.start)
        field.forEachSubfield(of: bytes) { inner in
            switch inner.number {
            case 1: item.identifier = inner.value
            case 2: item.opener = inner.start
            case 3:
                inner.forEachSubfield(of: bytes) { metadata in
                    if metadata.number == 3 { item.activePage = metadata.start }
                    if metadata.number == 4 { item.itemCount = metadata.value }
                }
            default: break
            }
        }
        return item
    }

    /// The offsets of item `index`, or an empty record when the layout has none.
    func item(_ index: Int) -> Item? { items.indices.contains(index) ? items[index] : nil }

    /// The offsets of group `index`.
    func group(_ index: Int) -> Group? { groups.indices.contains(index) ? groups[index] : nil }
}
