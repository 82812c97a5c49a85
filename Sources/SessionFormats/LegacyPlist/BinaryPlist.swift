/// A parsed binary property list (`bplist00`), kept flat as it is stored: one entry per object of
/// the offset table, containers holding object indexes rather than values.
///
/// Keeping the file's own structure lets every problem be reported at a byte offset, and lets a
/// keyed-archive decoder walk the graph without ever building deep or shared trees.
public struct BinaryPlist: Sendable {
    /// The objects, indexed as in the offset table; objects not reachable from the top are `.unread`.
    public var objects: [PlistObject]
    /// The byte offset of each object.
    public var offsets: [Int]
    /// The index of the top (root) object.
    public var topObject: Int
    /// The size of the file the list was read from; for a list built in memory, the end of its
    /// last object as far as the offsets tell (its highest offset).
    public var byteCount: Int

    public init(objects: [PlistObject], offsets: [Int], topObject: Int, byteCount: Int? = nil) {
        self.objects = objects
        self.offsets = offsets
        self.topObject = topObject
        self.byteCount = byteCount ?? (offsets.max() ?? 0)
    }

    /// The byte offset of an object, or 0 when the index is out of range.
    public func offset(of index: Int) -> Int {
        offsets.indices.contains(index) ? offsets[index] : 0
    }

    /// The object at an index; `.unread` when the index is out of range.
    public subscript(index: Int) -> PlistObject {
        objects.indices.contains(index) ? objects[index] : .unread
    }
}

/// One object of a binary property list: scalars by value, containers by object index.
public enum PlistObject: Sendable, Hashable {
    case null
    case bool(Bool)
    case integer(Int64)
    case largeInteger([UInt8])
    case real(Double)
    case date(Double)
    /// The bytes, a slice of the list read (nothing is copied as it is parsed).
    case data(ArraySlice<UInt8>)
    case string(String)
    case uid(UInt64)
    case array([Int])
    case set([Int])
    /// Keys and values, as parallel lists of object indexes.
    case dictionary(keys: [Int], values: [Int])
    /// Not parsed because nothing reachable from the top refers to it.
    case unread

    /// A short name of the kind of object, for messages.
    public var kindName: String {
        switch self {
        case .null: return "null"
        case .bool: return "boolean"
        case .integer, .largeInteger: return "integer"
        case .real: return "real"
        case .date: return "date"
        case .data: return "data"
        case .string: return "string"
        case .uid: return "UID"
        case .array: return "array"
        case .set: return "set"
        case .dictionary: return "dictionary"
        case .unread: return "unread object"
        }
    }
}

/// Where and why a binary property list cannot be read.
public struct PlistDamage: Error, Sendable, Hashable {
    /// Byte offset of the first bad byte.
    public var offset: Int
    /// What is wrong there, for a person.
    public var reason: String

    public init(offset: Int, reason: String) {
        self.offset = offset
        self.reason = reason
    }
}
