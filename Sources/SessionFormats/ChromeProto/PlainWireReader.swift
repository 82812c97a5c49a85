import SessionModel

/// A forward reader over one protobuf message's bytes for the plain decoders (`PlainTabDataDecoder`,
/// `PlainSessionMetadataDecoder`): each step gives up (nil) at anything a plain file does not hold.
struct PlainWireReader {
    private let bytes: UnsafeRawBufferPointer
    private var offset: Int
    private let end: Int

    init(_ bytes: UnsafeRawBufferPointer, start: Int = 0, end: Int) {
        self.bytes = bytes
        self.offset = start
        self.end = end
    }

    var atEnd: Bool { offset >= end }

    /// A one-byte tag (field numbers 1-15); nil for a longer one.
    mutating func tag() -> UInt8? {
        let byte = bytes[offset]
        guard byte & 0x80 == 0 else { return nil }
        offset += 1
        return byte
    }

    /// A varint as swift-protobuf reads it (at most ten bytes, high bits past 64 dropped).
    mutating func varint() -> UInt64? {
        var value: UInt64 = 0
        var shift: UInt64 = 0
        while offset < end, shift <= 63 {
            let byte = bytes[offset]
            offset += 1
            value |= UInt64(byte & 0x7f) &<< shift
            if byte & 0x80 == 0 { return value }
            shift += 7
        }
        return nil
    }

    /// The range of a length-delimited value, moving past it.
    mutating func body() -> Range<Int>? {
        guard let length = varint(), length <= UInt64(end - offset) else { return nil }
        let range = offset..<(offset + Int(length))
        offset = range.upperBound
        return range
    }

    /// A reader over a nested message's bytes.
    mutating func message() -> PlainWireReader? {
        body().map { PlainWireReader(bytes, start: $0.lowerBound, end: $0.upperBound) }
    }

    /// A string field's value: valid UTF-8 accepted exactly as swift-protobuf accepts it (it checks
    /// with `Unicode.UTF8.ForwardParser`, which only ASCII passes without a look).
    mutating func string() -> String? {
        guard let range = body() else { return nil }
        let slice = UnsafeRawBufferPointer(rebasing: bytes[range])
        if !PlainWireReader.isASCII(slice) {
            var parser = Unicode.UTF8.ForwardParser()
            var iterator = slice.makeIterator()
            loop: while true {
                switch parser.parseScalar(from: &iterator) {
                case .valid: continue
                case .error: return nil
                case .emptyInput: break loop
                }
            }
        }
        return String(decoding: slice, as: UTF8.self)
    }

    /// True when every byte is below 0x80 (checked eight bytes at a time).
    static func isASCII(_ slice: UnsafeRawBufferPointer) -> Bool {
        var seen: UInt64 = 0
        var offset = 0
        while offset + 8 <= slice.count {
            seen |= slice.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
            offset += 8
        }
        while offset < slice.count {
            seen |= UInt64(slice[offset])
            offset += 1
        }
        return seen & 0x8080_8080_8080_8080 == 0
    }

    /// Marks field `number` as seen; false when it was seen before (a repeated singular field).
    static func first(_ number: UInt8, _ seen: inout UInt16) -> Bool {
        let bit: UInt16 = 1 << number
        defer { seen |= bit }
        return seen & bit == 0
    }

    /// `Timestamp`: microseconds = 1.
    mutating func timestamp() -> Timestamp? {
        var microseconds: Int64 = 0
        var seen: UInt16 = 0
        while !atEnd {
            guard let tag = tag(), tag == 0x08, PlainWireReader.first(1, &seen), let value = varint() else { return nil }
            microseconds = Int64(bitPattern: value)
        }
        return Timestamp(microseconds: microseconds)
    }

    /// A bytes field's value.
    mutating func bytesValue() -> [UInt8]? {
        body().map { Array(bytes[$0]) }
    }
}
