import SessionForensics

/// Where the parts of a tab's data.pb lie, so that findings can name the byte they are about.
struct TabDataLayout: Sendable {
    /// Offset of the metadata field (field 2), which Chrome leaves out of data.pb.
    var metadata: Int?
    /// Offset of the navigation message.
    var navigation: Int?
    /// Offset of the last committed item index.
    var lastCommittedIndex: Int?
    /// Offset of each navigation item.
    var items: [Int] = []

    init() {}

    /// Walks the bytes of a data.pb.
    init(_ bytes: [UInt8]) {
        WireField.forEachField(of: bytes, in: 0..<bytes.count) { field in
            switch field.number {
            case 2: metadata = metadata ?? field.start
            case 4:
                navigation = field.start
                field.forEachSubfield(of: bytes) { inner in
                    if inner.number == 1 { lastCommittedIndex = inner.value }
                    if inner.number == 2 { items.append(inner.start) }
                }
            default: break
            }
        }
    }

    /// The offset of item `index`.
    func item(_ index: Int) -> Int? { items.indices.contains(index) ? items[index] : nil }
}
