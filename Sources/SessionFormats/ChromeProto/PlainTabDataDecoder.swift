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

extension PlainWireReader {
    /// `WebStateStorage`: has_opener = 1, user_agent = 3, navigation = 4.
    mutating func webState() -> TabHistory? {
        var history = TabHistory(hasOpener: false, userAgent: .none, lastCommittedIndex: 0)
        var seen: UInt16 = 0
        while !atEnd {
            guard let tag = tag(), PlainWireReader.first(tag >> 3, &seen) else { return nil }
            switch tag {
            case 0x08:
                guard let value = varint() else { return nil }
                history.hasOpener = value != 0
            case 0x18:
                guard let value = varint() else { return nil }
                history.userAgent = UserAgent(rawValue: Int32(truncatingIfNeeded: value))
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
            case 0x0a:
                guard let value = string() else { return nil }
                item.url = value
            case 0x12:
                guard let value = string() else { return nil }
                item.virtualURL = value
            case 0x1a:
                guard let value = string() else { return nil }
                item.title = value
            case 0x22:
                guard var reader = message(), let value = reader.timestamp() else { return nil }
                item.timestamp = value
            case 0x28:
                guard let value = varint() else { return nil }
                item.userAgent = UserAgent(rawValue: Int32(truncatingIfNeeded: value))
            case 0x32:
                guard var reader = message(), let value = reader.referrer() else { return nil }
                item.referrer = value
            case 0x3a:
                guard var reader = message(), let value = reader.headers() else { return nil }
                item.headers = value
            case 0x42:
                guard let value = bytesValue() else { return nil }
                item.securityScopedFileResource = value
            default: return nil
            }
        }
        return item
    }

    /// `ReferrerStorage`: url = 1, policy = 2.
    mutating func referrer() -> Referrer? {
        var referrer = Referrer(url: "", policy: ReferrerPolicy(rawValue: 0))
        var seen: UInt16 = 0
        while !atEnd {
            guard let tag = tag(), PlainWireReader.first(tag >> 3, &seen) else { return nil }
            switch tag {
            case 0x0a:
                guard let value = string() else { return nil }
                referrer.url = value
            case 0x10:
                guard let value = varint() else { return nil }
                referrer.policy = ReferrerPolicy(rawValue: Int32(truncatingIfNeeded: value))
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
                case 0x0a:
                    guard let value = reader.string() else { return nil }
                    header.name = value
                case 0x12:
                    guard let value = reader.string() else { return nil }
                    header.value = value
                default: return nil
                }
            }
            headers.append(header)
        }
        return headers
    }
}
