import Archive
import Foundation

/// Archives made in memory for the compress and decompress tests, hostile ones included.
enum Archives {
    /// A `.tar.gz` of the given members.
    static func tarGz(_ members: [(TarEntry, [UInt8])]) throws -> Data {
        var writer = TarWriter(sink: MemorySink())
        for (entry, content) in members { try writer.add(entry, content: content) }
        return Data(try GzipEncoder.compress(try writer.finish().bytes))
    }

    /// A gzip stream of `gibibytes` GiB of zeros, made from one full-flushed segment repeated (about 1 MiB per GiB).
    static func zeroBomb(gibibytes: Int) throws -> Data {
        let encoder = try GzipEncoder(sink: MemorySink(), level: 9)
        try encoder.write([UInt8](repeating: 0, count: 1 << 20))
        try encoder.flush()
        let first = encoder.sink.bytes
        let tail = try encoder.finish().bytes[first.count...]
        var out = Data(first[..<10])
        for _ in 0..<(gibibytes * 1024) { out.append(contentsOf: first[10...]) }
        out.append(contentsOf: tail)
        return out
    }

    /// Every path under a directory, relative to it, sorted.
    static func listing(_ directory: String) -> [String] {
        (FileManager.default.enumerator(atPath: directory)?.compactMap { $0 as? String } ?? []).sorted()
    }
}
