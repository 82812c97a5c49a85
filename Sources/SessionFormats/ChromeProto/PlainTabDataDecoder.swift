import SessionModel

/// Decodes a data.pb of the plain shape Chrome writes straight into a `TabHistory`, without
/// building protobuf message objects; nil for anything else, which then goes to swift-protobuf.
///
/// "Plain" means: only the fields this decoder knows (no metadata, certificates or unknown fields),
/// each singular field at most once, every tag one byte with the wire type the schema gives,
/// every length within its message, every string valid UTF-8. For such bytes protobuf decoding
/// has exactly one result, so this decoder and swift-protobuf agree on it (a test holds them to
/// that); every other input, damaged ones included, is left to swift-protobuf and the wire scanner,
/// so strictness, error offsets and unknown-field keeping are theirs.
enum PlainTabDataDecoder {
    /// The history in `bytes`, or nil when they are not of the plain shape.
    static func decode(_ bytes: [UInt8]) -> TabHistory? {
        bytes.withUnsafeBytes { raw in
            var reader = PlainWireReader(raw, end: raw.count)
            return reader.webState()
        }
    }
}

/// A forward reader over one message's bytes that gives up (returns nil) at the first thing a
/// plain data.pb does not hold.
private struct PlainWireReader {
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

    /// A string field's value: valid UTF-8 accepted exactly as swift-protobuf accepts it.
    mutating func string() -> String? {
        guard let range = body() else { return nil }
        let slice = UnsafeRawBufferPointer(rebasing: bytes[range])
        if !slice.allSatisfy({ $0 < 0x80 }) {
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

    /// Marks field `number` as seen; false when it was seen before (a repeated singular field).
    static func first(_ number: UInt8, _ seen: inout UInt16) -> Bool {
        let bit: UInt16 = 1 << number
        defer { seen |= bit }
        return seen & bit == 0
    }

    /// `WebStateStorage`: has_opener = 1, user_agent = 3, navigation = 4.
    mutating func webState() -> TabHistory? {
        var history = TabHistory(hasOpener: false, userAgent: .none, lastCommittedIndex: 0)
        var seen: UInt16 = 0
        while !atEnd {
            guard let tag = tag(), PlainWireReader.first(tag >> 3, &seen) else { return nil }
            switch tag {
            case 0x08: guard let value = varint() else { return nil }; history.hasOpener = value != 0
            case 0x18: guard let value = varint() else { return nil }; history.userAgent = UserAgent(rawValue: Int32(truncatingIfNeeded: value))
            case 0x22:
                guard var navigation = message(), navigation.navigation(into: &history) else { return nil }
            default: return nil
            }
        }
        return history
    }

    /// `NavigationStorage`: last_committed_item_index = 1, items = 2 (repeated).
    mutating func navigation(into history: inout TabHistory) -> Bool {
        var seenIndex = false
        while !atEnd {
            guard let tag = tag() else { return false }
            switch tag {
            case 0x08:
                guard !seenIndex, let value = varint() else { return false }
                seenIndex = true
                history.lastCommittedIndex = Int32(truncatingIfNeeded: value)
            case 0x12:
                guard var reader = message(), let item = reader.navigationItem() else { return false }
                history.items.append(item)
            default: return false
            }
        }
        return true
    }

    /// `NavigationItemStorage`: url 1, virtual_url 2, title 3, timestamp 4, user_agent 5,
    /// referrer 6, http_request_headers 7, security_scoped_file_resource 8.
    mutating func navigationItem() -> NavigationItem? {
        var item = NavigationItem()
        var seen: UInt16 = 0
        while !atEnd {
            guard let tag = tag(), PlainWireReader.first(tag >> 3, &seen) else { return nil }
            switch tag {
            case 0x0a: guard let value = string() else { return nil }; item.url = value
            case 0x12: guard let value = string() else { return nil }; item.virtualURL = value
            case 0x1a: guard let value = string() else { return nil }; item.title = value
            case 0x22: guard var reader = message(), let value = reader.timestamp() else { return nil }; item.timestamp = value
            case 0x28: guard let value = varint() else { return nil }; item.userAgent = UserAgent(rawValue: Int32(truncatingIfNeeded: value))
            case 0x32: guard var reader = message(), let value = reader.referrer() else { return nil }; item.referrer = value
            case 0x3a: guard var reader = message(), let value = reader.headers() else { return nil }; item.headers = value
            case 0x42: guard let range = body() else { return nil }; item.securityScopedFileResource = Array(bytes[range])
            default: return nil
            }
        }
        return item
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

    /// `ReferrerStorage`: url = 1, policy = 2.
    mutating func referrer() -> Referrer? {
        var referrer = Referrer(url: "", policy: ReferrerPolicy(rawValue: 0))
        var seen: UInt16 = 0
        while !atEnd {
            guard let tag = tag(), PlainWireReader.first(tag >> 3, &seen) else { return nil }
            switch tag {
            case 0x0a: guard let value = string() else { return nil }; referrer.url = value
            case 0x10: guard let value = varint() else { return nil }; referrer.policy = ReferrerPolicy(rawValue: Int32(truncatingIfNeeded: value))
            default: return nil
            }
        }
        return referrer
    }

    /// `HttpHeaderListStorage`: headers = 1 (repeated `HttpHeaderStorage`: name = 1, value = 2).
    mutating func headers() -> [HTTPHeader]? {
        var headers: [HTTPHeader] = []
        while !atEnd {
            guard let tag = tag(), tag == 0x0a, var reader = message() else { return nil }
            var header = HTTPHeader(name: "", value: "")
            var seen: UInt16 = 0
            while !reader.atEnd {
                guard let inner = reader.tag(), PlainWireReader.first(inner >> 3, &seen) else { return nil }
                switch inner {
                case 0x0a: guard let value = reader.string() else { return nil }; header.name = value
                case 0x12: guard let value = reader.string() else { return nil }; header.value = value
                default: return nil
                }
            }
            headers.append(header)
        }
        return headers
    }
}
