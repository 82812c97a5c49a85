import FileSystemKit
import Foundation
import SessionFormats
import SessionModel
import SessionStore
import Synchronization

@testable import SessionForensics

/// Profiles on disk made by code for the Aside's tests, and a snapshot of their files.
enum AsideTestSupport {
    static let windows: [SessionID] = ["A1B2C3D4-0000-4000-8000-000000000001", "A1B2C3D4-0000-4000-8000-000000000002"]

    /// A fresh profile with two regular windows and one incognito window, tabs with histories.
    static func makeProfile() throws -> String {
        let profile = FileManager.default.temporaryDirectory.appendingPathComponent("aside-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: profile, withIntermediateDirectories: true)
        let writer = ProfileWriter()
        for (number, id) in windows.enumerated() {
            try writer.write(session(id: id, tabs: [TabID(number * 10 + 1), TabID(number * 10 + 2)], incognito: false), profile: profile)
        }
        try writer.write(session(id: windows[0], tabs: [31], incognito: true), profile: profile)
        return profile
    }

    static func session(id: SessionID, tabs: [TabID], incognito: Bool) -> Session {
        var session = DiffTestData.session(tabs, id: id, incognito: incognito)
        for index in session.tabs.indices {
            session.tabs[index].history = DiffTestData.history(["a\(index)", "b\(index)"])
            session.tabs[index].navigationItemCount = 2
        }
        return session
    }

    /// Every regular file under `root` (path relative to it) with its bytes; the lock file left out.
    static func snapshot(_ root: String) -> [String: Data] {
        var files: [String: Data] = [:]
        let enumerator = FileManager.default.enumerator(atPath: root)
        while let path = enumerator?.nextObject() as? String {
            var isDirectory: ObjCBool = false
            let full = root + "/" + path
            guard FileManager.default.fileExists(atPath: full, isDirectory: &isDirectory), !isDirectory.boolValue,
                lastPathComponent(path) != ProfileLock.staleFileName
            else { continue }
            files[path] = FileManager.default.contents(atPath: full)
        }
        return files
    }

    /// A fixed clock that advances one second per reading.
    static func clock() -> @Sendable () -> Timestamp {
        let ticks = Atomic<Int64>(0)
        return {
            let tick = ticks.add(1, ordering: .relaxed).newValue
            return Timestamp(unixMicroseconds: 1_795_000_000_000_000 + tick * 1_000_000 + 123_456)
        }
    }

    static func aside(_ profile: String, fileSystem: any FileSystem = POSIXFileSystem()) -> Aside {
        Aside(profile: profile, writer: AtomicWriter(fileSystem: fileSystem), toolVersion: "test", clock: clock())
    }
}

/// The real file system, except that the N-th changing operation fails (as if the process died
/// just before it): everything before it happened, nothing after it does; and reading a file
/// whose path ends in `unreadable` fails.
final class FailingAfterFileSystem: FileSystem {
    let base = POSIXFileSystem()
    let failAt: Int
    let unreadable: String?
    private let count = Atomic<Int>(0)

    init(failAt: Int = .max, unreadable: String? = nil) {
        self.failAt = failAt
        self.unreadable = unreadable
    }

    /// How many changing operations were attempted.
    var operations: Int { count.load(ordering: .relaxed) }

    private func step(_ name: String, _ path: String) throws(FileSystemError) {
        let number = count.add(1, ordering: .relaxed).newValue
        if number >= failAt { throw .io(operation: name, path: path, code: 5, reason: "injected failure") }
    }

    func createExclusive(_ path: String, mode: UInt32) throws(FileSystemError) -> FileHandleID {
        try step("open", path)
        return try base.createExclusive(path, mode: mode)
    }
    func write(_ handle: FileHandleID, _ bytes: ArraySlice<UInt8>) throws(FileSystemError) -> Int {
        try step("write", "fd")
        return try base.write(handle, bytes)
    }
    func fsync(_ handle: FileHandleID) throws(FileSystemError) {
        try step("fsync", "fd")
        try base.fsync(handle)
    }
    func close(_ handle: FileHandleID) throws(FileSystemError) { try base.close(handle) }
    func rename(_ source: String, to destination: String) throws(FileSystemError) {
        try step("rename", source)
        try base.rename(source, to: destination)
    }
    func fsyncDirectory(_ path: String) throws(FileSystemError) {
        try step("fsync directory", path)
        try base.fsyncDirectory(path)
    }
    func link(_ source: String, to destination: String) throws(FileSystemError) {
        try step("link", source)
        try base.link(source, to: destination)
    }
    func unlink(_ path: String) throws(FileSystemError) {
        try step("unlink", path)
        try base.unlink(path)
    }
    func mkdir(_ path: String, mode: UInt32) throws(FileSystemError) {
        try step("mkdir", path)
        try base.mkdir(path, mode: mode)
    }
    func rmdir(_ path: String) throws(FileSystemError) {
        try step("rmdir", path)
        try base.rmdir(path)
    }
    func read(_ path: String, limit: Int) throws(FileSystemError) -> [UInt8] {
        if let unreadable, path.hasSuffix(unreadable) { throw .io(operation: "open", path: path, code: 13, reason: "Permission denied") }
        return try base.read(path, limit: limit)
    }
    func size(of path: String) -> Int? { base.size(of: path) }
    func resolvedKind(of path: String) -> FileKind? { base.resolvedKind(of: path) }
    func lockDirectory(_ path: String) throws(FileSystemError) -> DirectoryLock { try base.lockDirectory(path) }
    func list(_ path: String) throws(FileSystemError) -> [String] { try base.list(path) }
    func kind(of path: String) -> FileKind? { base.kind(of: path) }
    func permissions(of path: String) -> UInt32? { base.permissions(of: path) }
}
