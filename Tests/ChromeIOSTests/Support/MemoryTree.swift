import FileSystemKit
import Foundation
import SessionFormats
import SessionModel

/// A file tree held in memory for tests: files by path, directories implied by them (or added
/// empty), sizes that can be faked, and a count of how often each file was read.
final class MemoryTree: ReadableFileSystem, @unchecked Sendable {
    private(set) var files: [String: [UInt8]] = [:]
    private var directories: Set<String> = [""]
    private var fakeSizes: [String: Int] = [:]
    private let lock = NSLock()
    private var readCounts: [String: Int] = [:]

    /// The files as a tree, as readers take them.
    var readable: ReadableTree { ReadableTree(fileSystem: self, root: "", displayName: "memory") }

    init(_ files: [String: [UInt8]] = [:]) {
        for (path, bytes) in files { add(path, bytes) }
    }

    /// Adds a file (and its parent directories).
    func add(_ path: String, _ bytes: [UInt8]) {
        files[path] = bytes
        addDirectory(parent(path))
    }

    /// Adds a file that claims `size` bytes without holding them.
    func addSized(_ path: String, size: Int) {
        add(path, [])
        fakeSizes[path] = size
    }

    /// Adds a directory (and its parents).
    func addDirectory(_ path: String) {
        var current = path
        while !current.isEmpty {
            directories.insert(current)
            current = parent(current)
        }
    }

    func remove(_ path: String) {
        files[path] = nil
        directories = directories.filter { $0 != path && !$0.hasPrefix(path + "/") }
        files = files.filter { !$0.key.hasPrefix(path + "/") }
    }

    /// How many times each file was read.
    var reads: [String: Int] { lock.withLock { readCounts } }

    func kind(of path: String) -> FileKind? {
        if files[path] != nil { return .file }
        return directories.contains(path) ? .directory : nil
    }

    func list(_ path: String) throws(FileSystemError) -> [String] {
        guard directories.contains(path) else { throw .io(operation: "opendir", path: path, code: 2, reason: "No such file or directory") }
        let prefix = path.isEmpty ? "" : path + "/"
        var names = Set<String>()
        for entry in Array(files.keys) + Array(directories) where entry.hasPrefix(prefix) && entry != path {
            let rest = entry.dropFirst(prefix.count)
            if let name = rest.split(separator: "/").first { names.insert(String(name)) }
        }
        return names.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    }

    func read(_ path: String, limit: Int) throws(FileSystemError) -> [UInt8] {
        guard let bytes = files[path] else { throw .io(operation: "open", path: path, code: 2, reason: "No such file or directory") }
        lock.withLock { readCounts[path, default: 0] += 1 }
        return bytes
    }

    func size(of path: String) -> Int? {
        fakeSizes[path] ?? files[path]?.count
    }

    private func parent(_ path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "" }
        return String(path[..<slash])
    }
}
