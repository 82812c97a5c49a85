import Archive
import CZlib
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
        let out = Pipe(), err = Pipe(), input = Pipe()
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
        var state = seed &* 0x9E3779B97F4A7C15 | 1
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

    /// A gzip stream that decompresses to `gibibytes` GiB of zeros, built from one repeated
    /// full-flushed deflate segment so that making it costs little.
    static func zeroBomb(gibibytes: Int) throws -> [UInt8] {
        var stream = z_stream()
        guard czlib_deflate_init_raw(&stream, 9) == Z_OK else { throw ArchiveError.zlib(code: -1, reason: "init") }
        defer { deflateEnd(&stream) }
        let zeros = [UInt8](repeating: 0, count: 1 << 20)
        var segment = [UInt8](repeating: 0, count: 1 << 16)
        var produced = 0
        zeros.withUnsafeBytes { input in
            segment.withUnsafeMutableBytes { output in
                stream.next_in = UnsafeMutablePointer(mutating: input.baseAddress!.assumingMemoryBound(to: Bytef.self))
                stream.avail_in = uInt(input.count)
                stream.next_out = output.baseAddress!.assumingMemoryBound(to: Bytef.self)
                stream.avail_out = uInt(output.count)
                _ = deflate(&stream, Z_FULL_FLUSH)
                produced = output.count - Int(stream.avail_out)
            }
        }
        segment.removeSubrange(produced...)
        var out: [UInt8] = [0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3]
        out.reserveCapacity(segment.count * gibibytes * 1024 + 32)
        for _ in 0..<(gibibytes * 1024) { out.append(contentsOf: segment) }
        // A final empty stored block, then a trailer (CRC of zeros is not worth computing: the limit stops first).
        out.append(contentsOf: [0x01, 0x00, 0x00, 0xff, 0xff, 0, 0, 0, 0, 0, 0, 0, 0])
        return out
    }
}
