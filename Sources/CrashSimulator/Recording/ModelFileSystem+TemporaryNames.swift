@_spi(CrashTesting) import FileSystemKit
import SessionStore

/// The names a `ModelFileSystem` gives the store's temporaries: fixed by its own history, so that
/// two runs of the same thing leave the same tree, whatever process ids and counters the store
/// put in the names it chose.
extension ModelFileSystem {
    /// The path in the tree of a path the store uses: a temporary file's own name, or a path at or
    /// below a staged directory, may have been translated (see `canonicalTemporaryPath`).
    @inline(__always)
    func translate(_ path: String) -> String {
        if !directoryAliases.isEmpty, let below = translateBelowStagedDirectory(path) { return below }
        guard !aliases.isEmpty, ModelFileSystem.endsInTemporaryName(path) else { return path }
        return aliases[path] ?? path
    }

    /// `path` with a staged directory's name as the store chose it translated, or nil when no
    /// staged directory is at or above it.
    private func translateBelowStagedDirectory(_ path: String) -> String? {
        for alias in directoryAliases where path.utf8.starts(with: alias.store.utf8) {
            let rest = path.utf8.dropFirst(alias.store.utf8.count)
            if rest.isEmpty { return alias.model }
            if rest.first == UInt8(ascii: "/") { return alias.model + String(Substring(rest)) }
        }
        return nil
    }

    /// Whether the last component of `path` starts with `AtomicWriter.temporaryPrefix`.
    static func endsInTemporaryName(_ path: String) -> Bool {
        let found = path.utf8.withContiguousStorageIfAvailable { bytes -> Bool in
            var start = bytes.count
            while start > 0 && bytes[start - 1] != 0x2F { start -= 1 }
            // Most names do not start as the prefix does: told at the first byte.
            guard start < bytes.count, bytes[start] == temporaryPrefixFirstByte else { return false }
            return bytes[start...].starts(with: temporaryPrefixBytes)
        }
        return found ?? AtomicWriter.isTemporaryName(lastPathComponent(path))
    }

    private static let temporaryPrefixBytes = Array(AtomicWriter.temporaryPrefix.utf8)
    private static let temporaryPrefixFirstByte = AtomicWriter.temporaryPrefix.utf8.first ?? 0

    /// A deterministic name for a temporary file the store creates at `path`, or with `directory`
    /// for a staged directory it makes there (`<prefix><target>.<pid>.d<serial>`, see
    /// `StagedDirectory`; a directory named otherwise keeps the name the store gave it).
    func canonicalTemporaryPath(_ path: String, directory: Bool = false) -> String {
        let name = lastPathComponent(path)
        guard AtomicWriter.isTemporaryName(name) else { return path }
        // The name less its process id and counter: the last two dot-separated parts, when both
        // are ASCII digits (the counter of a directory after a "d") and a dot comes before them
        // (".1.2" keeps nothing).
        let utf8 = name.utf8
        var stem = Substring(utf8[utf8.index(utf8.startIndex, offsetBy: AtomicWriter.temporaryPrefix.utf8.count)...])
        if directory {
            guard let counter = ModelFileSystem.digitsSuffix(stem.utf8, after: UInt8(ascii: "d")),
                let process = ModelFileSystem.digitsSuffix(stem.utf8[..<counter])
            else { return path }
            stem = Substring(stem.utf8[..<process])
        } else if let counter = ModelFileSystem.digitsSuffix(stem.utf8),
            let process = ModelFileSystem.digitsSuffix(stem.utf8[..<counter])
        {
            stem = Substring(stem.utf8[..<process])
        }
        temporaryCount += 1
        let canonical = AtomicWriter.temporaryPrefix + stem + ".\(temporaryTag)\(directory ? "d" : "")\(temporaryCount)"
        let result = joinPath(parentPath(path), canonical)
        if directory { directoryAliases.append((path, result)) } else { aliases[path] = result }
        return result
    }

    /// Where `bytes` ends in a dot, `marker` if given, and one or more ASCII digits: the index of that dot.
    private static func digitsSuffix(_ bytes: Substring.UTF8View, after marker: UInt8? = nil) -> Substring.UTF8View.Index? {
        var index = bytes.endIndex
        while index > bytes.startIndex, case let byte = bytes[bytes.index(before: index)], byte >= 0x30 && byte <= 0x39 {
            index = bytes.index(before: index)
        }
        guard index < bytes.endIndex, index > bytes.startIndex else { return nil }
        if let marker {
            index = bytes.index(before: index)
            guard bytes[index] == marker, index > bytes.startIndex else { return nil }
        }
        let dot = bytes.index(before: index)
        return bytes[dot] == UInt8(ascii: ".") ? dot : nil
    }

    /// A temporary this file system did not name itself is a crashed run's: in the model the
    /// command run in progress is the only process (see `AbandonedOutputs`).
    @_spi(CrashTesting) public func writerIsGone(temporary path: String, process: Int32?) -> Bool {
        let inTree = translate(path)
        return !aliases.values.contains(inTree) && !directoryAliases.contains { $0.model == inTree }
    }
}
