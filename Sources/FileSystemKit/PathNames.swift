/// Joins path components with `/`, ignoring empty ones ("" stays the root of a relative tree).
public func joinPath(_ parts: String...) -> String {
    var result = ""
    for part in parts where !part.isEmpty {
        if result.isEmpty || result.utf8.last == slash { result += part } else { result += "/" + part }
    }
    return result
}

/// Joins two path components (the common case, without building an array).
public func joinPath(_ first: String, _ second: String) -> String {
    if first.isEmpty { return second }
    if second.isEmpty { return first }
    return first.utf8.last == slash ? first + second : first + "/" + second
}

/// The byte that separates path components. Paths are split on it byte by byte, as the kernel
/// does (never by `Character`, which is slower and would take a `/` followed by a combining mark
/// for something else).
private let slash = UInt8(ascii: "/")

/// The directory part of a path ("." when it has none).
public func parentPath(_ path: String) -> String {
    guard let last = path.utf8.lastIndex(of: slash) else { return "." }
    let parent = String(Substring(path.utf8[..<last]))
    return parent.isEmpty ? "/" : parent
}

/// The last component of a path.
public func lastPathComponent(_ path: String) -> String {
    guard let last = path.utf8.lastIndex(of: slash) else { return path }
    return String(Substring(path.utf8[path.utf8.index(after: last)...]))
}

/// The non-empty components of a path, in order ("/a//b/" gives ["a", "b"]).
public func pathComponents(_ path: String) -> [String] {
    path.utf8.split(separator: slash).map { String(Substring($0)) }
}

/// Names sorted by their UTF-8 bytes: the order every listing of the project uses, whatever the locale.
public func sortedByBytes(_ names: [String]) -> [String] {
    sortedByBytes(names) { $0 }
}

/// Items sorted by the UTF-8 bytes of their names (see `sortedByBytes(_:)`).
public func sortedByBytes<Item>(_ items: [Item], name: (Item) -> String) -> [Item] {
    // For ASCII names String's own order is byte order, and much faster to compare.
    if items.allSatisfy({ name($0).utf8.allSatisfy { $0 < 0x80 } }) { return items.sorted { name($0) < name($1) } }
    return items.sorted { name($0).utf8.lexicographicallyPrecedes(name($1).utf8) }
}
