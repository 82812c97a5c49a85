import Archive

/// Archive's streaming readers: the gzip decoder (members, trailers, the output limit) and the tar reader.
///
/// Both are fed the input whole and again in small irregular pieces; the outcome (everything
/// produced, and the error with its offset) must not depend on the split.
enum ArchiveFuzz {
    /// The output limit the gzip target decodes under (a 64 KiB input can inflate to 64 MiB).
    static let gzipLimit: Int64 = 1 << 20

    /// What a reader produced: its output, or the error it stopped with.
    enum Outcome<Value: Equatable>: Equatable {
        case produced(Value)
        case failed(ArchiveError)
        case other(String)

        init(_ body: () throws -> Value) {
            do { self = .produced(try body()) } catch let error as ArchiveError { self = .failed(error) } catch {
                self = .other("\(error)")
            }
        }
    }

    @Sendable static func gzip(_ bytes: [UInt8]) {
        let whole = Outcome { try GzipDecoder.decompress(bytes, file: "f", limit: gzipLimit) }
        let pieces = Outcome { () throws -> [UInt8] in
            let decoder = try GzipDecoder(file: "f", limit: gzipLimit)
            var out: [UInt8] = []
            try ChunkPlan.split(bytes) { piece in try decoder.feed(piece) { out.append(contentsOf: $0) } }
            try decoder.finish()
            if decoder.produced != Int64(out.count) { fatalError("gzip decoder counted \(decoder.produced) bytes, handed on \(out.count)") }
            return out
        }
        guard whole == pieces else { fatalError("gzip outcome depends on the split: \(describe(whole)) vs \(describe(pieces))") }
        guard case .produced(let plain) = whole else {
            if case .other(let text) = whole { fatalError("gzip decoder threw something other than ArchiveError: \(text)") }
            return
        }
        if !plain.isEmpty {
            // One byte less than the content allows must stop with tooLarge, never hand on more.
            let limited = Outcome { try GzipDecoder.decompress(bytes, file: "f", limit: Int64(plain.count - 1)) }
            guard case .failed(.tooLarge) = limited else { fatalError("limit \(plain.count - 1) not enforced: \(describe(limited))") }
        }
        let again = try? GzipDecoder.decompress(GzipEncoder<MemorySink>.compress(plain))
        if again != plain { fatalError("gzip encoder output does not decode to its input") }
    }

    /// Runs the tar reader on the input as it is, and again with a valid checksum in every block,
    /// so that mutated header fields get past the checksum (a fuzzer rarely writes a sum in octal).
    @Sendable static func tar(_ bytes: [UInt8]) {
        tarOnce(bytes)
        let sealed = sealed(bytes)
        if sealed != bytes { tarOnce(sealed) }
    }

    /// `bytes` with a valid header checksum in every 512-byte block that is not all zeros.
    static func sealed(_ bytes: [UInt8]) -> [UInt8] {
        var sealed = bytes
        var start = 0
        while start + 512 <= sealed.count {
            if sealed[start..<(start + 512)].contains(where: { $0 != 0 }) {
                for index in 148..<156 { sealed[start + index] = UInt8(ascii: " ") }
                let sum = sealed[start..<(start + 512)].reduce(0) { $0 + Int($1) }
                let digits = Array(String(sum, radix: 8).utf8)
                let field = Array(repeating: UInt8(ascii: "0"), count: 6 - digits.count) + digits + [0, UInt8(ascii: " ")]
                for (index, byte) in field.enumerated() { sealed[start + 148 + index] = byte }
            }
            start += 512
        }
        return sealed
    }

    private static func tarOnce(_ bytes: [UInt8]) {
        let whole = Outcome { () throws -> [TarRecorder.Member] in
            var reader = TarReader(file: "t")
            var recorder = TarRecorder()
            try bytes.withUnsafeBytes { try reader.feed($0, into: &recorder) }
            try reader.finish()
            if reader.offset != Int64(bytes.count) { fatalError("tar reader consumed \(reader.offset) of \(bytes.count) bytes") }
            return recorder.members
        }
        let pieces = Outcome { () throws -> [TarRecorder.Member] in
            var reader = TarReader(file: "t")
            var recorder = TarRecorder()
            try ChunkPlan.split(bytes) { piece in try reader.feed(piece, into: &recorder) }
            try reader.finish()
            return recorder.members
        }
        guard whole == pieces else { fatalError("tar outcome depends on the split: \(describe(whole)) vs \(describe(pieces))") }
        if case .other(let text) = whole { fatalError("tar reader threw something other than ArchiveError: \(text)") }
    }

    private static func describe<Value>(_ outcome: Outcome<Value>) -> String {
        switch outcome {
        case .produced(let value): return "produced \(String(describing: value).prefix(200))"
        case .failed(let error): return "failed: \(error)"
        case .other(let text): return "other error: \(text)"
        }
    }
}

/// Records the members a `TarReader` reports, checking the handler protocol as it goes.
struct TarRecorder: TarEntryHandler {
    /// One member with its whole content.
    struct Member: Equatable {
        var entry: TarEntry
        var content: [UInt8]
    }

    private(set) var members: [Member] = []
    private var open = false

    mutating func begin(_ entry: TarEntry) throws {
        if open { fatalError("tar member '\(entry.path)' begins inside another") }
        if entry.size < 0 || (entry.kind != .file && entry.size != 0) { fatalError("tar member '\(entry.path)' has size \(entry.size)") }
        members.append(Member(entry: entry, content: []))
        open = true
    }

    mutating func content(_ bytes: UnsafeRawBufferPointer) throws {
        guard open, !members.isEmpty else { fatalError("tar content outside a member") }
        let last = members.count - 1
        if members[last].entry.kind != .file { fatalError("tar content for a \(members[last].entry.kind) member") }
        if Int64(members[last].content.count + bytes.count) > members[last].entry.size {
            fatalError("tar content beyond the size of '\(members[last].entry.path)'")
        }
        members[last].content.append(contentsOf: bytes)
    }

    mutating func end() throws {
        guard open, let last = members.last else { fatalError("tar member ends that never began") }
        if Int64(last.content.count) != last.entry.size {
            fatalError("tar member '\(last.entry.path)' ended after \(last.content.count) of \(last.entry.size) bytes")
        }
        open = false
    }
}
