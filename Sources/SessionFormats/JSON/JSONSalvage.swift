/// A step into a JSON document: an array's element or an object's member.
public enum JSONPathComponent: Sendable, Hashable, CustomStringConvertible {
    case index(Int)
    case key(String)

    public var description: String {
        switch self {
        case .index(let index): "[\(index)]"
        case .key(let key): ".\(key)"
        }
    }
}

/// What `JSONParser.salvage` could read of a document that may be cut short or damaged.
public struct JSONSalvage: Sendable {
    /// The first error of a damaged document.
    public struct Damage: Sendable, Equatable {
        /// The byte offset of the error.
        public var offset: Int
        public var reason: String
        /// The containers open at the error, outermost first: the element or member being read
        /// there is the last one, and each container on the path ends with it (when it was a
        /// container, partial) or just before it.
        public var path: [JSONPathComponent]

        public init(offset: Int, reason: String, path: [JSONPathComponent]) {
            self.offset = offset
            self.reason = reason
            self.path = path
        }

        /// Whether the value at `prefix` (a path from the document's root) was read whole.
        public func leavesWhole(_ prefix: [JSONPathComponent]) -> Bool {
            !(path.count >= prefix.count && Array(path.prefix(prefix.count)) == prefix)
        }
    }

    /// Every complete value before the damage, containers open there closed; nil when not even
    /// the outermost value began well.
    public var value: JSONValue?
    /// The first error, or nil for a well-formed document.
    public var damage: Damage?
}
