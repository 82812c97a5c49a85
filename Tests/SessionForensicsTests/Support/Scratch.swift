import Archive
import Foundation

/// A temporary directory for one test, with helpers to make trees and archives in it.
struct Scratch {
    let root: String

    init() throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("forensics-test-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
    }

    func remove() { try? FileManager.default.removeItem(atPath: root) }

    func path(_ relative: String) -> String { root + "/" + relative }

    func write(_ relative: String, _ bytes: [UInt8]) throws {
        let url = URL(fileURLWithPath: path(relative))
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(bytes).write(to: url)
    }

    func read(_ relative: String) throws -> [UInt8] { [UInt8](try Data(contentsOf: URL(fileURLWithPath: path(relative)))) }

    func exists(_ relative: String) -> Bool { FileManager.default.fileExists(atPath: path(relative)) }

    /// Every path under a directory, relative to it, sorted.
    func listing(_ relative: String = "") -> [String] {
        (FileManager.default.enumerator(atPath: relative.isEmpty ? root : path(relative))?.compactMap { $0 as? String } ?? []).sorted()
    }

    /// A `.tar.gz` of the given members, made in memory.
    static func tarGz(_ members: [(TarEntry, [UInt8])]) throws -> [UInt8] {
        var writer = TarWriter(sink: MemorySink())
        for (entry, content) in members { try writer.add(entry, content: content) }
        return try GzipEncoder.compress(try writer.finish().bytes)
    }

    /// Runs a program found on PATH.
    @discardableResult
    static func run(_ program: String, _ arguments: [String], in directory: String? = nil) throws -> (status: Int32, stdout: Data) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [program] + arguments
        if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, data)
    }
}
