import FileSystemKit
import Foundation
import Testing

/// The real file system's readers refuse alike what is no regular file or too large, list in byte
/// order, and lock a directory without leaving anything in it.
@Suite struct POSIXFileSystemTests {
    let fileSystem = POSIXFileSystem()

    @Test func readsAWholeFileAndRefusesOneOverTheLimit() throws {
        let root = try scratch()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let file = joinPath(root, "a.pb")
        try fileSystem.writeNew(file, Array(repeating: 7, count: 5000))
        #expect(try fileSystem.read(file).count == 5000)
        #expect(fileSystem.size(of: file) == 5000)
        #expect(throws: FileSystemError.tooLarge(path: file, size: 5000, limit: 4999)) { try fileSystem.read(file, limit: 4999) }
    }

    @Test func aFIFOIsRefusedWithoutWaiting() throws {
        let root = try scratch()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let fifo = joinPath(root, "data.pb")
        #expect(mkfifo(fifo, 0o600) == 0)
        #expect(fileSystem.kind(of: fifo) == .other)
        #expect(throws: FileSystemError.notRegularFile(path: fifo)) { try fileSystem.read(fifo) }
        let snapshot = fileSystem.snapshot(of: root, reading: "data.pb", measuring: "data.pb")
        #expect(snapshot.names == ["data.pb"])
        #expect(snapshot.measuredSize == nil)
        if case .failure(let error)? = snapshot.file { #expect(error == .notRegularFile(path: fifo)) } else { Issue.record("read a FIFO") }
        #expect(throws: FileSystemError.notRegularFile(path: fifo)) { try FileStream(fifo) }
    }

    @Test func symbolicLinksAreSeenOrFollowedAsAsked() throws {
        let root = try scratch()
        defer { try? FileManager.default.removeItem(atPath: root) }
        try fileSystem.mkdir(joinPath(root, "real"), mode: 0o700)
        try fileSystem.symlink("real", at: joinPath(root, "link"))
        #expect(fileSystem.kind(of: joinPath(root, "link")) == .other)
        #expect(fileSystem.resolvedKind(of: joinPath(root, "link")) == .directory)
    }

    @Test func listingsAreInByteOrder() throws {
        let root = try scratch()
        defer { try? FileManager.default.removeItem(atPath: root) }
        for name in ["b", "a", "é", "Z", "aa"] { try fileSystem.writeNew(joinPath(root, name), []) }
        #expect(try fileSystem.list(root) == ["Z", "a", "aa", "b", "é"])
        #expect(throws: FileSystemError.self) { try fileSystem.list(joinPath(root, "a")) }
    }

    /// A listing with kinds says what `list` and `kind(of:)` say, symbolic links not followed,
    /// FIFOs as other.
    @Test func entriesAreTheListingWithEachKind() throws {
        let root = try scratch()
        defer { try? FileManager.default.removeItem(atPath: root) }
        try fileSystem.writeNew(joinPath(root, "b.pb"), [1])
        try fileSystem.mkdir(joinPath(root, "Z"), mode: 0o700)
        try FileManager.default.createSymbolicLink(atPath: joinPath(root, "a-link"), withDestinationPath: "Z")
        #expect(mkfifo(joinPath(root, "fifo"), 0o600) == 0)
        try fileSystem.writeNew(joinPath(root, "\u{E9}t\u{E9}"), [2])
        let entries = try fileSystem.entries(of: root)
        #expect(entries.map(\.name) == (try fileSystem.list(root)))
        #expect(entries.map(\.kind) == (try fileSystem.list(root)).map { fileSystem.kind(of: joinPath(root, $0)) })
        #expect(entries.map(\.kind) == [.directory, .other, .file, .other, .file])
        #expect(throws: FileSystemError.self) { try fileSystem.entries(of: joinPath(root, "b.pb")) }
    }

    @Test func aDirectoryLockExcludesASecondHolderAndLeavesNothing() throws {
        let root = try scratch()
        defer { try? FileManager.default.removeItem(atPath: root) }
        var lock: DirectoryLock? = try fileSystem.lockDirectory(root)
        #expect(throws: FileSystemError.locked(path: root)) { try fileSystem.lockDirectory(root) }
        #expect(try fileSystem.list(root).isEmpty)
        _ = lock
        lock = nil
        _ = try fileSystem.lockDirectory(root)
        #expect(throws: FileSystemError.self) { try fileSystem.lockDirectory(joinPath(root, "missing")) }
    }

    @Test func pathHelpers() {
        #expect(joinPath("", "a") == "a")
        #expect(joinPath("/", "a") == "/a")
        #expect(joinPath("a", "", "b") == "a/b")
        #expect(parentPath("a") == ".")
        #expect(parentPath("/a") == "/")
        #expect(lastPathComponent("/x/y") == "y")
        #expect(parentPath("/a/b/") == "/a/b" && lastPathComponent("/a/b/") == "")
        #expect(joinPath("a/", "b") == "a/b" && joinPath("a/", "b", "c") == "a/b/c")
        // Split on the byte, as the kernel does: a "/" followed by a combining mark still separates.
        #expect(parentPath("/d\u{301}/\u{301}e") == "/d\u{301}" && lastPathComponent("/d\u{301}/\u{301}e") == "\u{301}e")
        #expect(pathComponents("/d\u{301}/\u{301}e") == ["d\u{301}", "\u{301}e"])
        #expect(lastPathComponent("/données/été.pb") == "été.pb" && parentPath("/données/été.pb") == "/données")
        #expect(pathComponents("/a//b/") == ["a", "b"])
        #expect(sortedByBytes(["é", "e", "E"]) == ["E", "e", "é"])
    }
}

/// A new empty directory for one test (the test removes it).
func scratch() throws -> String {
    let path = NSTemporaryDirectory() + "fskit-\(UUID().uuidString)"
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
}

extension FileSystem {
    /// Writes a new file with `bytes` (tests only).
    func writeNew(_ path: String, _ bytes: [UInt8]) throws {
        let handle = try createExclusive(path, mode: 0o600)
        var offset = 0
        while offset < bytes.count { offset += try write(handle, bytes[offset...]) }
        try close(handle)
    }
}
