import Archive
import Foundation

/// Runs system tools (gzip, tar, sha256sum) and makes test data.
enum Tools {
    struct Result {
        var status: Int32
        var stdout: Data
        var stderr: String
    }

    /// Runs a program found on PATH with optional standard input.
    @discardableResult
    static func run(_ program: String, _ arguments: [String], stdin: Data? = nil, in directory: String? = nil) throws -> Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [program] + arguments
        if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
        let out = Pipe()
        let err = Pipe()
        let input = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = input
        try process.run()
        let writer = Thread {
            if let stdin { input.fileHandleForWriting.write(stdin) }
            try? input.fileHandleForWriting.close()
        }
        writer.start()
        nonisolated(unsafe) var errData = Data()
        let group = DispatchGroup()
        group.enter()
        DispatchQueue.global().async {
            errData = err.fileHandleForReading.readDataToEndOfFile()
            group.leave()
        }
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        process.waitUntilExit()
        return Result(status: process.terminationStatus, stdout: outData, stderr: String(decoding: errData, as: UTF8.self))
    }

    /// A fresh temporary directory.
    static func temporaryDirectory() throws -> String {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("archive-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url.path
    }

    /// Deterministic pseudo-random bytes (xorshift), some of them compressible.
    static func bytes(count: Int, seed: UInt64 = 1) -> [UInt8] {
        var state = seed &* 0x9E37_79B9_7F4A_7C15 | 1
        var out = [UInt8](repeating: 0, count: count)
        for index in 0..<count {
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            // Every other 64-byte run is text-like, so deflate has something to find.
            out[index] = (index / 64) % 2 == 0 ? UInt8(truncatingIfNeeded: state) : UInt8(ascii: "a") + UInt8(state % 8)
        }
        return out
    }

    /// A gzip stream that decompresses to `gibibytes` GiB of zeros, built from one full-flushed
    /// deflate segment repeated, so that making it costs little (about 1 KiB per MiB).
    static func zeroBomb(gibibytes: Int) throws -> [UInt8] {
        let encoder = try GzipEncoder(sink: MemorySink(), level: 9)
        try encoder.write([UInt8](repeating: 0, count: 1 << 20))
        try encoder.flush()
        let first = encoder.sink.bytes
        let segment = first[10...]
        let tail = try encoder.finish().bytes[first.count...]
        var out = Array(first[..<10])
        out.reserveCapacity(segment.count * gibibytes * 1024 + tail.count)
        for _ in 0..<(gibibytes * 1024) { out.append(contentsOf: segment) }
        // The trailer counts one segment only: the size limit is reached long before it.
        out.append(contentsOf: tail)
        return out
    }
}
