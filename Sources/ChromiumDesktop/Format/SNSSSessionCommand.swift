import Archive
import FileSystemKit
import SessionFormats
import SessionModel

/// A session command of a `Session_` file as replay uses it (docs/chromium-desktop-format.md,
/// "Session commands"): those that shape windows and tabs decoded, every other known one checked
/// as Chromium checks it and kept as `other`.
enum SNSSSessionCommand: Sendable {
    case setTabWindow(window: Int32, tab: Int32)
    case setTabIndexInWindow(tab: Int32, index: Int32)
    case prunedFromBack(tab: Int32, index: Int32)
    case navigation(SNSSNavigation)
    case setSelectedNavigationIndex(tab: Int32, index: Int32)
    case setSelectedTabInIndex(window: Int32, index: Int32)
    case setWindowType(window: Int32, type: Int32)
    case pruned(tab: Int32, index: Int32, count: Int32)
    case setPinnedState(tab: Int32, pinned: Bool)
    case setWindowBounds(window: Int32, showState: Int32)
    case tabClosed(tab: Int32)
    case windowClosed(window: Int32)
    case setActiveWindow(window: Int32)
    case lastActiveTime(tab: Int32, time: Int64)
    case setTabGroup(tab: Int32, group: SNSSToken?)
    case setTabGroupMetadata(group: SNSSToken, title: String, color: UInt32, collapsed: Bool)
    case setWindowUserTitle(window: Int32, title: String)
    /// A command that changes nothing replay keeps (an app name, a user agent, extra data...).
    case other

    /// What decoding a record gives.
    enum Decoded {
        case command(SNSSSessionCommand)
        /// An id Chromium does not know: replay stops there.
        case unknown
        /// A known id whose contents do not read as Chromium reads them: replay stops there.
        case unparsable(String)
        /// A command Chromium applies in part before it finds the rest does not read (a saved
        /// group's metadata without its id): the part applied, then replay stops there.
        case unparsableAfter(SNSSSessionCommand, String)
        /// A command of the product's own (`SNSSDialect`): kept, never applied.
        case own(SNSSDialect.OwnCommand)
    }

    /// Decodes the record `id` with contents `bytes[contents]`, as the product of `dialect` reads it.
    static func decode(id: UInt8, _ bytes: FileBytes, _ contents: Range<Int>, dialect: SNSSDialect) -> Decoded {
        if dialect.isChromium { return decode(id: id, bytes, contents) }
        switch dialect.meaning(of: id, count: contents.count) {
        case .own(let command): return .own(command)
        case .chromium(let chromium): return decode(id: chromium, bytes, contents)
        }
    }

    /// Decodes the record `id` with contents `bytes[contents]`, as Chromium reads it.
    static func decode(id: UInt8, _ bytes: FileBytes, _ contents: Range<Int>) -> Decoded {
        let set = SNSSCommandSet.session
        guard set.knows(id), id != SNSSFile.markerID else { return .unknown }
        if let sizes = set.fixedSize(of: id) {
            guard sizes.allows(contents.count) else {
                return .unparsable("\(contents.count) bytes where the command takes \(sizes.size)")
            }
            return decodeFixed(id: id, FixedFields(bytes: bytes, start: contents.lowerBound))
        }
        guard var pickle = PickleReader(bytes, contents) else { return .unparsable("its pickle's header does not fit its contents") }
        if id == SNSSCommandSet.session.navigationID {
            guard let navigation = SNSSNavigation.decode(&pickle, in: bytes, record: contents) else {
                return .unparsable("its pickle ends before a field the command needs")
            }
            return .command(.navigation(navigation))
        }
        return decodePickled(id: id, &pickle)
    }

    /// The fields of a fixed-size command, read at their offsets.
    struct FixedFields {
        /// Where the bytes start, read while the caller holds them (as `PickleReader` reads).
        let base: UnsafeRawPointer
        let count: Int
        let start: Int

        init(bytes: borrowing FileBytes, start: Int) {
            self.base = bytes.unsafeBaseAddress
            self.count = bytes.count
            self.start = start
        }

        func int32(_ at: Int) -> Int32 {
            precondition(start + at >= 0 && start + at + 4 <= count, "a field outside the bytes")
            return Int32(bitPattern: UInt32(littleEndian: base.loadUnaligned(fromByteOffset: start + at, as: UInt32.self)))
        }
        func uint64(_ at: Int) -> UInt64 {
            precondition(start + at >= 0 && start + at + 8 <= count, "a field outside the bytes")
            return UInt64(littleEndian: base.loadUnaligned(fromByteOffset: start + at, as: UInt64.self))
        }
        func int64(_ at: Int) -> Int64 { Int64(bitPattern: uint64(at)) }
        func bool(_ at: Int) -> Bool {
            precondition(start + at >= 0 && start + at < count, "a field outside the bytes")
            return base.load(fromByteOffset: start + at, as: UInt8.self) != 0
        }
    }

    private static func decodeFixed(id: UInt8, _ f: FixedFields) -> Decoded {
        switch id {
        case 0: return .command(.setTabWindow(window: f.int32(0), tab: f.int32(4)))
        case 2: return .command(.setTabIndexInWindow(tab: f.int32(0), index: f.int32(4)))
        case 5: return .command(.prunedFromBack(tab: f.int32(0), index: f.int32(4)))
        case 7: return .command(.setSelectedNavigationIndex(tab: f.int32(0), index: f.int32(4)))
        case 8: return .command(.setSelectedTabInIndex(window: f.int32(0), index: f.int32(4)))
        case 9: return .command(.setWindowType(window: f.int32(0), type: f.int32(4)))
        case 11:
            let count = f.int32(4)
            guard count > 0 else { return .unparsable("a count of \(count) navigations pruned from the front") }
            return .command(.pruned(tab: f.int32(0), index: 0, count: count))
        case 12: return .command(.setPinnedState(tab: f.int32(0), pinned: f.bool(4)))
        case 14: return .command(.setWindowBounds(window: f.int32(0), showState: f.int32(20)))
        case 16: return .command(.tabClosed(tab: f.int32(0)))
        case 17: return .command(.windowClosed(window: f.int32(0)))
        case 20: return .command(.setActiveWindow(window: f.int32(0)))
        case 21: return .command(.lastActiveTime(tab: f.int32(0), time: f.int64(8)))
        case 24:
            let count = f.int32(8)
            guard f.int32(4) >= 0, count > 0 else { return .unparsable("index \(f.int32(4)) and count \(count) of navigations pruned") }
            return .command(.pruned(tab: f.int32(0), index: f.int32(4), count: count))
        case 25:
            let group = SNSSToken(high: f.uint64(8), low: f.uint64(16))
            return .command(.setTabGroup(tab: f.int32(0), group: f.bool(24) ? group : nil))
        default: return .command(.other)
        }
    }

    private static func decodePickled(id: UInt8, _ p: inout PickleReader) -> Decoded {
        let missing = Decoded.unparsable("its pickle ends before a field the command needs")
        switch id {
        case 13, 15, 18, 19, 23:
            guard p.int32() != nil, p.data() != nil else { return missing }
            return .command(.other)
        case 27:
            guard let token = p.token(), let title = p.string16(), let color = p.uint32() else { return missing }
            let collapsed = p.bool() ?? false
            let metadata = SNSSSessionCommand.setTabGroupMetadata(
                group: SNSSToken(high: token.high, low: token.low), title: title, color: color, collapsed: collapsed)
            // Chromium sets the group's title, colour and collapsed state before it reads the id.
            if p.bool() == true, p.data() == nil { return .unparsableAfter(metadata, "a saved group without its id") }
            return .command(metadata)
        case 28:
            guard p.int32() != nil, let guid = p.string() else { return missing }
            guard SNSSToken.isUUID(guid) else { return .unparsable("a tab GUID that is no UUID") }
            return .command(.other)
        case 29:
            guard p.int32() != nil, p.data() != nil else { return missing }
            return .command(.other)
        case 30:
            guard p.int32() != nil, let count = p.int32(), count >= 0 else { return missing }
            for _ in 0..<count {
                guard p.data() != nil, p.data() != nil else { return missing }
            }
            return .command(.other)
        case 31:
            guard let window = p.int32(), let title = p.string() else { return missing }
            return .command(.setWindowUserTitle(window: window, title: title))
        case 33, 34:
            guard p.int32() != nil, p.data() != nil, p.data() != nil else { return missing }
            return .command(.other)
        case 37:
            guard p.token() != nil, p.uint64() != nil, p.data() != nil else { return missing }
            return .command(.other)
        default:
            return .command(.other)
        }
    }
}

/// A `base::Token` (a tab group's id): two uint64 words, high first.
public struct SNSSToken: Sendable, Hashable {
    public var high: UInt64
    public var low: UInt64

    /// Whether `text` is a UUID as `base::Uuid::ParseCaseInsensitive` takes one (8-4-4-4-12 hex digits).
    static func isUUID(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard bytes.count == 36 else { return false }
        for (index, byte) in bytes.enumerated() {
            if [8, 13, 18, 23].contains(index) {
                guard byte == UInt8(ascii: "-") else { return false }
            } else {
                let hex =
                    (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte)
                    || (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(byte)
                guard hex else { return false }
            }
        }
        return true
    }
}
