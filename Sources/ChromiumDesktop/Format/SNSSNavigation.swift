import Archive
import FileSystemKit
import SessionFormats
import SessionModel

/// One entry of a tab's history as an UpdateTabNavigation command holds it (Chromium's
/// `SerializedNavigationEntry` pickle; docs/chromium-desktop-format.md, "The navigation pickle").
///
/// A navigation decoded from a file is checked to have every field Chromium requires, and keeps
/// where its strings and the fields after its page state are, decoding them when they are asked
/// for: a session file holds tens of thousands of navigations (their page states push the later
/// fields into other cache lines), and a validation looks at the fields of one a tab.
/// `SNSSTests` compares every field with an eager decoding.
public struct SNSSNavigation: Sendable, Equatable {
    /// The tab it belongs to.
    public var tab: Int32
    /// Its place in the tab's history (not its place among the entries written).
    public var index: Int32
    /// Where the command's contents are in the file it was read from (a rewrite copies them).
    public var record: Range<Int>?
    private var fields: Fields

    public var url: String {
        get { fields.value(\.url) { e in PickleReader.utf8(e.bytes, e.url) } }
        set { fields.change { $0.url = newValue } }
    }
    public var title: String {
        get { fields.value(\.title) { e in PickleReader.utf16(e.bytes, e.title) } }
        set { fields.change { $0.title = newValue } }
    }
    /// `ui::PageTransition`.
    public var transition: Int32 {
        get { fields.value(\.transition) { e in e.tail.transition } }
        set { fields.change { $0.transition = newValue } }
    }
    public var referrer: String {
        get { fields.value(\.referrer) { e in e.string(e.tail.referrer) } }
        set { fields.change { $0.referrer = newValue } }
    }
    public var originalRequestURL: String {
        get { fields.value(\.originalRequestURL) { e in e.string(e.tail.originalRequestURL) } }
        set { fields.change { $0.originalRequestURL = newValue } }
    }
    /// Microseconds since 1601 (0 when the pickle ends before it).
    public var timestamp: Int64 {
        get { fields.value(\.timestamp) { e in e.tail.timestamp } }
        set { fields.change { $0.timestamp = newValue } }
    }
    /// The HTTP status code (0 when the pickle ends before it).
    public var httpStatus: Int32 {
        get { fields.value(\.httpStatus) { e in e.tail.httpStatus } }
        set { fields.change { $0.httpStatus = newValue } }
    }

    /// A navigation of these fields.
    public init(
        tab: Int32, index: Int32, url: String, title: String, transition: Int32, referrer: String, originalRequestURL: String,
        timestamp: Int64, httpStatus: Int32, record: Range<Int>?
    ) {
        self.tab = tab
        self.index = index
        self.record = record
        self.fields = .decoded(
            Decoded(
                url: url, title: title, transition: transition, referrer: referrer, originalRequestURL: originalRequestURL,
                timestamp: timestamp, httpStatus: httpStatus))
    }

    private init(tab: Int32, index: Int32, record: Range<Int>?, fields: Fields) {
        self.tab = tab
        self.index = index
        self.record = record
        self.fields = fields
    }

    public static func == (a: SNSSNavigation, b: SNSSNavigation) -> Bool {
        a.tab == b.tab && a.index == b.index && a.record == b.record && a.fields.decoded == b.fields.decoded
    }

    /// Decodes the pickle of `bytes[contents]` as Chromium's `ReadFromPickle` does: the tab id,
    /// index, URL, title, page state and transition must be there; every later field is read
    /// when present. Nil when a required field is missing.
    public static func decode(_ bytes: FileBytes, _ contents: Range<Int>) -> SNSSNavigation? {
        guard var pickle = PickleReader(bytes, contents) else { return nil }
        return decode(&pickle, in: bytes, record: contents)
    }

    /// `decode` of bytes held in an array.
    public static func decode(_ bytes: [UInt8], _ contents: Range<Int>) -> SNSSNavigation? {
        decode(FileBytes(bytes), contents)
    }

    /// `decodeCut` of bytes held in an array.
    public static func decodeCut(_ bytes: [UInt8], _ contents: Range<Int>) -> SNSSNavigation? {
        decodeCut(FileBytes(bytes), contents)
    }

    /// What can be read of a navigation whose record the file cuts short: the fields up to the
    /// cut, when the tab id, index and URL are whole; the title is kept when it is whole too.
    public static func decodeCut(_ bytes: FileBytes, _ contents: Range<Int>) -> SNSSNavigation? {
        guard var pickle = PickleReader(cut: bytes, contents), let tab = pickle.int32(), let index = pickle.int32(),
            let url = pickle.string(), !url.isEmpty
        else { return nil }
        return SNSSNavigation(
            tab: tab, index: index, url: url, title: pickle.string16() ?? "", transition: 0, referrer: "", originalRequestURL: "",
            timestamp: 0, httpStatus: 0, record: nil)
    }

    /// Decodes from a reader positioned at the tab id: the fields Chromium requires are checked
    /// to be there; the strings and the fields after the page state are read when asked for.
    static func decode(_ pickle: inout PickleReader, in bytes: FileBytes, record: Range<Int>?) -> SNSSNavigation? {
        guard let tab = pickle.int32(), let index = pickle.int32(), let url = pickle.data(), let title = pickle.string16Bytes(),
            pickle.data() != nil
        else { return nil }
        let rest = pickle.position
        guard pickle.skip(4) else { return nil }  // the transition
        return SNSSNavigation(
            tab: tab, index: index, record: record,
            fields: .encoded(Encoded(bytes: bytes, url: url, title: title, rest: rest, end: pickle.end)))
    }

    /// The fields other than the tab, index and record, as values.
    private struct Decoded: Sendable, Equatable {
        var url: String
        var title: String
        var transition: Int32
        var referrer: String
        var originalRequestURL: String
        var timestamp: Int64
        var httpStatus: Int32
    }

    /// The fields of a pickle: where the strings are, and where the fields after the page state
    /// start (in the file's bytes, shared, not copied).
    private struct Encoded: Sendable {
        /// The file's bytes, held here (the readers made over them hold none).
        var bytes: FileBytes
        var url: Range<Int>
        var title: Range<Int>
        /// Where the transition is, and where the pickle ends.
        var rest: Int
        var end: Int

        /// Every field.
        var decoded: Decoded {
            let tail = self.tail
            return Decoded(
                url: PickleReader.utf8(bytes, url), title: PickleReader.utf16(bytes, title), transition: tail.transition,
                referrer: string(tail.referrer), originalRequestURL: string(tail.originalRequestURL), timestamp: tail.timestamp,
                httpStatus: tail.httpStatus)
        }

        /// The UTF-8 string at `range` ("" for none).
        func string(_ range: Range<Int>?) -> String {
            range.map { PickleReader.utf8(bytes, $0) } ?? ""
        }

        /// The fields after the page state, read as Chromium's `ReadFromPickle` reads them: the
        /// numbers, and where the two strings are (decoded only by the one that is asked for).
        var tail: Tail {
            var pickle = PickleReader(resuming: bytes, at: rest, end: end)
            var tail = Tail(transition: pickle.int32() ?? 0)
            // The type mask first: without it Chromium reads nothing more.
            guard pickle.int32() != nil else { return tail }
            tail.referrer = pickle.data()
            _ = pickle.int32()  // the obsolete referrer policy
            tail.originalRequestURL = pickle.data()
            _ = pickle.bool()  // is overriding the user agent
            tail.timestamp = pickle.int64() ?? 0
            _ = pickle.string16Bytes()  // search terms, always empty
            tail.httpStatus = pickle.int32() ?? 0
            return tail
        }

        /// What `tail` reads.
        struct Tail {
            var transition: Int32
            var referrer: Range<Int>?
            var originalRequestURL: Range<Int>?
            var timestamp: Int64 = 0
            var httpStatus: Int32 = 0
        }
    }

    /// The fields, as values or as where they are in the bytes they were read from.
    private enum Fields: Sendable {
        /// Boxed: a navigation read from a file holds none, and stays the size of `Encoded`.
        indirect case decoded(Decoded)
        case encoded(Encoded)

        var decoded: Decoded {
            switch self {
            case .decoded(let decoded): decoded
            case .encoded(let encoded): encoded.decoded
            }
        }

        /// One field: from the values, or decoded from the bytes by `encoded`.
        func value<Value>(_ field: KeyPath<Decoded, Value>, _ encoded: (Encoded) -> Value) -> Value {
            switch self {
            case .decoded(let decoded): decoded[keyPath: field]
            case .encoded(let bytes): encoded(bytes)
            }
        }

        mutating func change(_ body: (inout Decoded) -> Void) {
            var fields = decoded
            body(&fields)
            self = .decoded(fields)
        }
    }
}
