/// Reads binary property lists (`bplist00`) strictly, reporting the byte offset of the first bad byte.
///
/// Every length, offset and reference is checked against the file before it is used, objects are
/// parsed only when reachable from the top object, and the reference graph is walked without
/// recursion: a reference cycle or nesting deeper than `maxDepth` is damage, never a crash.
public enum BinaryPlistReader {
    /// The first six bytes of every binary property list.
    public static let magic: [UInt8] = Array("bplist".utf8)
    /// The deepest container nesting accepted (NSKeyedArchiver files are a few levels deep).
    public static let maxDepth = 512

    /// True when `bytes` start like a binary property list.
    public static func looksLikeBinaryPlist(_ bytes: [UInt8]) -> Bool { bytes.starts(with: magic) }

    /// Parses `bytes`; throws the first damage found.
    public static func read(_ bytes: [UInt8]) throws(PlistDamage) -> BinaryPlist {
        let trailer = try BinaryPlistTrailer(bytes)
        var offsets: [Int] = []
        offsets.reserveCapacity(trailer.objectCount)
        for index in 0..<trailer.objectCount {
            let at = trailer.tableOffset + index * trailer.offsetSize
            let value = BinaryPlistTrailer.bigEndian(bytes, at, trailer.offsetSize)
            guard value >= 8, value < UInt64(trailer.tableOffset) else {
                throw PlistDamage(
                    offset: at,
                    reason: "object \(index) is said to start at byte \(value), outside the object area 8..<\(trailer.tableOffset)")
            }
            offsets.append(Int(value))
        }
        let parser = BinaryPlistObjectParser(bytes: bytes, trailer: trailer, offsets: offsets)
        let objects = try walk(parser, top: trailer.topObject, count: trailer.objectCount)
        return BinaryPlist(objects: objects, offsets: offsets, topObject: trailer.topObject, byteCount: bytes.count)
    }

    /// Parses every object reachable from `top`, depth first without recursion, rejecting cycles and
    /// nesting deeper than `maxDepth` (so that building values from the result cannot recurse without bound).
    private static func walk(_ parser: BinaryPlistObjectParser, top: Int, count: Int) throws(PlistDamage) -> [PlistObject] {
        var objects = [PlistObject](repeating: .unread, count: count)
        var state = [UInt8](repeating: 0, count: count)  // 0 unseen, 1 on the current path, 2 done
        var height = [Int](repeating: 0, count: count)
        /// How many objects `object` refers to, and the one at `index` of them (keys before values).
        func referenceCount(_ object: PlistObject) -> Int {
            switch object {
            case .array(let refs), .set(let refs): refs.count
            case .dictionary(let keys, let values): keys.count + values.count
            default: 0
            }
        }
        func reference(_ object: PlistObject, _ index: Int) -> Int {
            switch object {
            case .array(let refs), .set(let refs): refs[index]
            case .dictionary(let keys, let values): index < keys.count ? keys[index] : values[index - keys.count]
            default: 0
            }
        }
        objects[top] = try parser.parse(top)
        state[top] = 1
        // Each frame: an object on the current path, how many of its references are done, how many it has.
        var stack: [(node: Int, next: Int, count: Int)] = [(top, 0, referenceCount(objects[top]))]
        while let frame = stack.last {
            if frame.next < frame.count {
                stack[stack.count - 1].next += 1
                let child = reference(objects[frame.node], frame.next)
                switch state[child] {
                case 0:
                    objects[child] = try parser.parse(child)
                    state[child] = 1
                    guard stack.count < maxDepth else {
                        throw PlistDamage(offset: parser.offsets[child], reason: "containers nested deeper than \(maxDepth) levels")
                    }
                    stack.append((child, 0, referenceCount(objects[child])))
                case 1:
                    throw PlistDamage(
                        offset: parser.offsets[frame.node],
                        reason: "reference cycle: object \(frame.node) refers to object \(child), which contains it")
                default:
                    continue
                }
            } else {
                var deepest = 0
                for index in 0..<frame.count { deepest = max(deepest, height[reference(objects[frame.node], index)]) }
                height[frame.node] = frame.count == 0 ? 0 : deepest + 1
                guard height[frame.node] <= maxDepth else {
                    throw PlistDamage(offset: parser.offsets[frame.node], reason: "containers nested deeper than \(maxDepth) levels")
                }
                state[frame.node] = 2
                stack.removeLast()
            }
        }
        return objects
    }
}

/// The 32-byte trailer of a binary property list, checked against the file's size.
struct BinaryPlistTrailer {
    let offsetSize: Int
    let referenceSize: Int
    let objectCount: Int
    let topObject: Int
    let tableOffset: Int

    init(_ bytes: [UInt8]) throws(PlistDamage) {
        guard BinaryPlistReader.looksLikeBinaryPlist(bytes) else {
            throw PlistDamage(offset: 0, reason: "not a binary property list (no bplist header)")
        }
        guard bytes.count >= 8, bytes[6] == UInt8(ascii: "0") else {
            throw PlistDamage(offset: 6, reason: "unsupported binary property list version")
        }
        guard bytes.count >= 8 + 32 else {
            throw PlistDamage(offset: bytes.count, reason: "truncated: \(bytes.count) bytes cannot hold a header and a trailer")
        }
        let start = bytes.count - 32
        let offsetSize = Int(bytes[start + 6])
        let referenceSize = Int(bytes[start + 7])
        guard bytes[start..<start + 5].allSatisfy({ $0 == 0 }), (1...8).contains(offsetSize), (1...8).contains(referenceSize) else {
            throw PlistDamage(offset: bytes.count, reason: "truncated or damaged at the end: the last 32 bytes are not a trailer")
        }
        let count = BinaryPlistTrailer.bigEndian(bytes, start + 8, 8)
        let top = BinaryPlistTrailer.bigEndian(bytes, start + 16, 8)
        let table = BinaryPlistTrailer.bigEndian(bytes, start + 24, 8)
        guard count >= 1, count <= UInt64(bytes.count) else {
            throw PlistDamage(offset: start + 8, reason: "object count \(count) is impossible in a file of \(bytes.count) bytes")
        }
        guard table >= 9, table < UInt64(start) else {
            throw PlistDamage(offset: start + 24, reason: "offset table said to start at byte \(table), outside the file")
        }
        guard Int(table) + Int(count) * offsetSize <= start else {
            throw PlistDamage(
                offset: start + 8, reason: "an offset table of \(count) entries does not fit between byte \(table) and the trailer")
        }
        guard top < count else {
            throw PlistDamage(offset: start + 16, reason: "top object \(top) is not among the \(count) objects")
        }
        self.offsetSize = offsetSize
        self.referenceSize = referenceSize
        self.objectCount = Int(count)
        self.topObject = Int(top)
        self.tableOffset = Int(table)
    }

    /// An unsigned big-endian integer of `size` (1-8) bytes at `offset`; the caller checks bounds.
    static func bigEndian(_ bytes: [UInt8], _ offset: Int, _ size: Int) -> UInt64 {
        var value: UInt64 = 0
        for index in offset..<offset + size { value = value << 8 | UInt64(bytes[index]) }
        return value
    }
}
