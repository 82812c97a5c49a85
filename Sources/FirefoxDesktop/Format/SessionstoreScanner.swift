import Archive
import FileSystemKit
import SessionFormats
import SessionModel

/// A fast read of a whole Firefox desktop session document: one pass over the bytes that checks
/// every value as `JSONParser` does but builds only what `SessionstoreDocument` holds, keeping
/// windows and tabs as spans of the bytes for a rewrite (`RawJSON.span`).
///
/// It is sound, not complete: when it meets anything it does not take on (damage, a key with an
/// escape, a value nested deeper than the parser allows), it gives up and the caller reads the
/// document with `JSONParser.salvage`, which says where and why. What it reads of a document it
/// accepts is what `SessionstoreDecoder`'s tree-built reading reads (`SessionstoreScannerTests`).
struct SessionstoreScanner {
    private let source: [UInt8]
    private let bytes: UnsafeBufferPointer<UInt8>
    private var offset = 0
    /// Below the depth the parser builds trees to (`JSONParser.treeDepth`): a deeper document is
    /// left to the parser, which reads it as Firefox does (with no depth limit, keeping what lies
    /// deeper as its bytes), so that the recursion here stays shallow.
    private static let maxDepth = 190

    /// The keys read of each object, by position; a key written twice is read each time, so that
    /// the last value stays, as `JSON.parse` keeps it.
    private static let documentKeys: [StaticString] = ["windows", "_closedWindows", "selectedWindow", "version", "session"]
    private static let windowKeys: [StaticString] = ["tabs", "_closedTabs", "selected", "isPrivate", "groups"]
    private static let closedTabKeys: [StaticString] = ["state"]
    private static let tabKeys: [StaticString] = ["entries", "index", "pinned", "hidden", "lastAccessed", "groupId"]
    private static let entryKeys: [StaticString] = ["url", "title", "children"]

    /// The scanner gave up: the caller reads the document the slow way.
    struct GaveUp: Error {}

    private init(source: [UInt8], bytes: UnsafeBufferPointer<UInt8>) {
        self.source = source
        self.bytes = bytes
    }

    /// The session of a whole, well-formed document; nil when the document is damaged, is not an
    /// object, or holds what the scanner leaves to the parser.
    static func decode(_ json: [UInt8]) -> SessionstoreDocument? {
        json.withUnsafeBufferPointer { buffer in
            var scanner = SessionstoreScanner(source: json, bytes: buffer)
            return try? scanner.document()
        }
    }

    // MARK: The session's structure

    private mutating func document() throws(GaveUp) -> SessionstoreDocument {
        skipSpace()
        let start = offset
        var document = SessionstoreDocument()
        if try beginObject() {
            repeat {
                switch which(try key(), Self.documentKeys) {
                case 0: document.windows = try windows(depth: 1)
                case 1: document.closedWindows = try windows(depth: 1)
                case 2: document.selectedWindow = try integer(depth: 1).map { Int(clamping: $0) } ?? 0
                case 3: document.version = try materialize(depth: 1)
                case 4: SessionstoreDecoder.readSession(try materialize(depth: 1), into: &document)
                default: try skipValue(depth: 1)
                }
            } while try endMember()
        }
        document.rawJSON = .span(source, start..<offset)
        skipSpace()
        guard offset == bytes.count else { throw GaveUp() }
        return document
    }

    /// An array of windows (anything else read as none, as the decoder reads it).
    private mutating func windows(depth: Int) throws(GaveUp) -> [SessionstoreWindow] {
        guard peek() == UInt8(ascii: "[") else {
            try skipValue(depth: depth)
            return []
        }
        var windows: [SessionstoreWindow] = []
        if try beginArray(depth: depth) {
            repeat {
                if let window = try window(depth: depth + 1) { windows.append(window) }
            } while try endElement()
        }
        return windows
    }

    private mutating func window(depth: Int) throws(GaveUp) -> SessionstoreWindow? {
        guard peek() == UInt8(ascii: "{") else {
            try skipValue(depth: depth)
            return nil
        }
        let start = offset
        var window = SessionstoreWindow()
        if try beginObject() {
            repeat {
                switch which(try key(), Self.windowKeys) {
                case 0: window.tabs = try tabs(depth: depth + 1, closed: false)
                case 1: window.closedTabs = try tabs(depth: depth + 1, closed: true)
                case 2: window.selected = try integer(depth: depth + 1).map { Int(clamping: $0) } ?? 0
                case 3: window.isPrivate = try materialize(depth: depth + 1) == .bool(true)
                case 4:
                    window.groups = SessionstoreDecoder.groups(try materialize(depth: depth + 1))
                default: try skipValue(depth: depth + 1)
                }
            } while try endMember()
        }
        window.rawJSON = .span(source, start..<offset)
        return window
    }

    /// An array of tabs, or (`closed`) of closed tabs, each holding its tab under `state`.
    private mutating func tabs(depth: Int, closed: Bool) throws(GaveUp) -> [SessionstoreTab] {
        guard peek() == UInt8(ascii: "[") else {
            try skipValue(depth: depth)
            return []
        }
        var tabs: [SessionstoreTab] = []
        if try beginArray(depth: depth) {
            repeat {
                if !closed {
                    if let tab = try tab(depth: depth + 1) { tabs.append(tab) }
                    continue
                }
                // A closed tab: its `state` (the first one) is the tab.
                guard peek() == UInt8(ascii: "{") else {
                    try skipValue(depth: depth + 1)
                    continue
                }
                var state: SessionstoreTab?
                if try beginObject() {
                    repeat {
                        if which(try key(), Self.closedTabKeys) == 0 {
                            state = try tab(depth: depth + 2)
                        } else {
                            try skipValue(depth: depth + 2)
                        }
                    } while try endMember()
                }
                if let state { tabs.append(state) }
            } while try endElement()
        }
        return tabs
    }

    private mutating func tab(depth: Int) throws(GaveUp) -> SessionstoreTab? {
        guard peek() == UInt8(ascii: "{") else {
            try skipValue(depth: depth)
            return nil
        }
        let start = offset
        var tab = SessionstoreTab()
        if try beginObject() {
            repeat {
                switch which(try key(), Self.tabKeys) {
                case 0: tab.entries = try entries(depth: depth + 1)
                case 1: tab.index = try integer(depth: depth + 1).map { Int(clamping: $0) } ?? 0
                case 2: tab.pinned = try materialize(depth: depth + 1) == .bool(true)
                case 3: tab.hidden = try materialize(depth: depth + 1) == .bool(true)
                case 4: tab.lastAccessed = try integer(depth: depth + 1)
                case 5:
                    if case .string(let group) = try materialize(depth: depth + 1) { tab.groupID = group } else { tab.groupID = nil }
                default: try skipValue(depth: depth + 1)
                }
            } while try endMember()
        }
        tab.rawJSON = .span(source, start..<offset)
        return tab
    }

    private mutating func entries(depth: Int) throws(GaveUp) -> [SessionstoreEntry] {
        guard peek() == UInt8(ascii: "[") else {
            try skipValue(depth: depth)
            return []
        }
        var entries: [SessionstoreEntry] = []
        if try beginArray(depth: depth) {
            repeat {
                guard peek() == UInt8(ascii: "{") else {
                    try skipValue(depth: depth + 1)
                    continue
                }
                var entry = SessionstoreEntry(url: "")
                if try beginObject() {
                    repeat {
                        switch which(try key(), Self.entryKeys) {
                        case 0: if case .string(let url) = try materialize(depth: depth + 2) { entry.url = url } else { entry.url = "" }
                        case 1:
                            if case .string(let title) = try materialize(depth: depth + 2) { entry.title = title } else { entry.title = "" }
                        case 2: entry.children = try count(depth: depth + 2)
                        default: try skipValue(depth: depth + 2)
                        }
                    } while try endMember()
                }
                entries.append(entry)
            } while try endElement()
        }
        return entries
    }

    /// The elements of an array (0 for another value, which is skipped).
    private mutating func count(depth: Int) throws(GaveUp) -> Int {
        guard peek() == UInt8(ascii: "[") else {
            try skipValue(depth: depth)
            return 0
        }
        var elements = 0
        if try beginArray(depth: depth) {
            repeat {
                try skipValue(depth: depth + 1)
                elements += 1
            } while try endElement()
        }
        return elements
    }

    /// An integer as the decoder takes one (nil for any other value).
    private mutating func integer(depth: Int) throws(GaveUp) -> Int64? {
        SessionstoreDecoder.integer(try materialize(depth: depth))
    }

    /// The value here, parsed by `JSONParser` (what it accepts, and how it reads it, are the parser's).
    private mutating func materialize(depth: Int) throws(GaveUp) -> JSONValue {
        let start = offset
        try skipValue(depth: depth)
        do {
            return try JSONParser.parse(Array(source[start..<offset]), file: "", takingLoneSurrogates: true, maxDepth: nil)
        } catch {
            throw GaveUp()
        }
    }

    // MARK: Bytes

    private func peek() -> UInt8? { offset < bytes.count ? bytes[offset] : nil }

    private mutating func skipSpace() {
        while offset < bytes.count {
            switch bytes[offset] {
            case 0x20, 0x09, 0x0A, 0x0D: offset += 1
            default: return
            }
        }
    }

    /// Consumes `{`; true when a member follows, false for `{}`.
    private mutating func beginObject() throws(GaveUp) -> Bool {
        guard peek() == UInt8(ascii: "{") else { throw GaveUp() }
        offset += 1
        skipSpace()
        if peek() == UInt8(ascii: "}") {
            offset += 1
            return false
        }
        return true
    }

    /// Consumes `[`; true when an element follows, false for `[]`.
    private mutating func beginArray(depth: Int) throws(GaveUp) -> Bool {
        guard depth < Self.maxDepth, peek() == UInt8(ascii: "[") else { throw GaveUp() }
        offset += 1
        skipSpace()
        if peek() == UInt8(ascii: "]") {
            offset += 1
            return false
        }
        return true
    }

    /// A member's key (without escapes, which are left to the parser) and its colon: where its
    /// characters are.
    private mutating func key() throws(GaveUp) -> Range<Int> {
        skipSpace()
        guard peek() == UInt8(ascii: "\"") else { throw GaveUp() }
        offset += 1
        let start = offset
        while offset < bytes.count, bytes[offset] != UInt8(ascii: "\"") {
            guard bytes[offset] >= 0x20, bytes[offset] != UInt8(ascii: "\\") else { throw GaveUp() }
            offset += 1
        }
        guard offset < bytes.count else { throw GaveUp() }
        let end = offset
        guard JSONParser.isValidUTF8(UnsafeBufferPointer(rebasing: bytes[start..<end])) else { throw GaveUp() }
        offset += 1
        skipSpace()
        guard peek() == UInt8(ascii: ":") else { throw GaveUp() }
        offset += 1
        skipSpace()
        return start..<end
    }

    /// Which of `names` the key at `range` is (its index), nil for another key.
    private func which(_ range: Range<Int>, _ names: [StaticString]) -> Int? {
        for (index, name) in names.enumerated() where name.utf8CodeUnitCount == range.count {
            let expected = UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount)
            var equal = true
            for position in 0..<range.count where bytes[range.lowerBound + position] != expected[position] {
                equal = false
                break
            }
            if equal { return index }
        }
        return nil
    }

    /// After a member: true when another follows (`,`), false at `}`.
    private mutating func endMember() throws(GaveUp) -> Bool {
        skipSpace()
        switch peek() {
        case UInt8(ascii: ","):
            offset += 1
            return true
        case UInt8(ascii: "}"):
            offset += 1
            return false
        default: throw GaveUp()
        }
    }

    /// After an element: true when another follows (`,`), false at `]`.
    private mutating func endElement() throws(GaveUp) -> Bool {
        skipSpace()
        switch peek() {
        case UInt8(ascii: ","):
            offset += 1
            skipSpace()
            return true
        case UInt8(ascii: "]"):
            offset += 1
            return false
        default: throw GaveUp()
        }
    }

    /// Skips one value, checking it as the parser would (a string with escapes is checked by the parser itself).
    private mutating func skipValue(depth: Int) throws(GaveUp) {
        skipSpace()
        guard depth < Self.maxDepth, let byte = peek() else { throw GaveUp() }
        switch byte {
        case UInt8(ascii: "\""): try skipString()
        case UInt8(ascii: "{"):
            if try beginObject() {
                repeat {
                    _ = try key()
                    try skipValue(depth: depth + 1)
                } while try endMember()
            }
        case UInt8(ascii: "["):
            if try beginArray(depth: depth) {
                repeat { try skipValue(depth: depth + 1) } while try endElement()
            }
        case UInt8(ascii: "t"): try skipLiteral("true")
        case UInt8(ascii: "f"): try skipLiteral("false")
        case UInt8(ascii: "n"): try skipLiteral("null")
        default: try skipNumber()
        }
    }

    private mutating func skipLiteral(_ text: StaticString) throws(GaveUp) {
        let count = text.utf8CodeUnitCount
        guard bytes.count - offset >= count else { throw GaveUp() }
        let literal = UnsafeBufferPointer(start: text.utf8Start, count: count)
        for index in 0..<count where bytes[offset + index] != literal[index] { throw GaveUp() }
        offset += count
    }

    /// A string: ASCII and UTF-8 runs checked here; one with an escape handed to the parser whole.
    private mutating func skipString() throws(GaveUp) {
        let start = offset
        offset += 1
        var escaped = false
        var ascii = true
        while offset < bytes.count {
            let byte = bytes[offset]
            if byte == UInt8(ascii: "\"") { break }
            if byte < 0x20 { throw GaveUp() }
            if byte == UInt8(ascii: "\\") {
                escaped = true
                offset += 2
                continue
            }
            if byte >= 0x80 { ascii = false }
            offset += 1
        }
        guard offset < bytes.count, bytes[offset] == UInt8(ascii: "\"") else { throw GaveUp() }
        offset += 1
        if escaped {
            guard (try? JSONParser.parse(Array(source[start..<offset]), file: "", takingLoneSurrogates: true, maxDepth: nil)) != nil else {
                throw GaveUp()
            }
        } else if !ascii {
            guard JSONParser.isValidUTF8(UnsafeBufferPointer(rebasing: bytes[(start + 1)..<(offset - 1)])) else { throw GaveUp() }
        }
    }

    /// A number as RFC 8259 writes one (no leading zero, digits after a point and in an exponent).
    private mutating func skipNumber() throws(GaveUp) {
        if peek() == UInt8(ascii: "-") { offset += 1 }
        let intStart = offset
        let intDigits = digits()
        guard intDigits > 0, !(intDigits > 1 && bytes[intStart] == 48) else { throw GaveUp() }
        if peek() == UInt8(ascii: ".") {
            offset += 1
            guard digits() > 0 else { throw GaveUp() }
        }
        if peek() == UInt8(ascii: "e") || peek() == UInt8(ascii: "E") {
            offset += 1
            if peek() == UInt8(ascii: "+") || peek() == UInt8(ascii: "-") { offset += 1 }
            guard digits() > 0 else { throw GaveUp() }
        }
    }

    private mutating func digits() -> Int {
        let begin = offset
        while offset < bytes.count, bytes[offset] >= 48, bytes[offset] <= 57 { offset += 1 }
        return offset - begin
    }
}
