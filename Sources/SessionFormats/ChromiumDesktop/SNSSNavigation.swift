/// One entry of a tab's history as an UpdateTabNavigation command holds it (Chromium's
/// `SerializedNavigationEntry` pickle; docs/chromium-desktop-format.md, "The navigation pickle").
///
/// A navigation decoded from a file keeps where its strings are and decodes them when they are
/// asked for: a session file holds tens of thousands of navigations, and a validation looks at the
/// strings of one a tab. `SNSSTests` compares every string with an eager decoding.
public struct SNSSNavigation: Sendable, Equatable {
    /// The tab it belongs to.
    public var tab: Int32
    /// Its place in the tab's history (not its place among the entries written).
    public var index: Int32
    /// `ui::PageTransition`.
    public var transition: Int32
    /// Microseconds since 1601 (0 when the pickle ends before it).
    public var timestamp: Int64
    /// The HTTP status code (0 when the pickle ends before it).
    public var httpStatus: Int32
    /// Where the command's contents are in the file it was read from (a rewrite copies them).
    public var record: Range<Int>?
    private var text: Text

    public var url: String {
        get { text.string(.url) }
        set { text.set(.url, newValue) }
    }
    public var title: String {
        get { text.string(.title) }
        set { text.set(.title, newValue) }
    }
    public var referrer: String {
        get { text.string(.referrer) }
        set { text.set(.referrer, newValue) }
    }
    public var originalRequestURL: String {
        get { text.string(.originalRequestURL) }
        set { text.set(.originalRequestURL, newValue) }
    }

    /// A navigation of these fields.
    public init(
        tab: Int32, index: Int32, url: String, title: String, transition: Int32, referrer: String, originalRequestURL: String,
        timestamp: Int64, httpStatus: Int32, record: Range<Int>?
    ) {
        self.tab = tab
        self.index = index
        self.transition = transition
        self.timestamp = timestamp
        self.httpStatus = httpStatus
        self.record = record
        self.text = .decoded([url, title, referrer, originalRequestURL])
    }

    private init(tab: Int32, index: Int32, transition: Int32, text: Text) {
        self.tab = tab
        self.index = index
        self.transition = transition
        self.timestamp = 0
        self.httpStatus = 0
        self.record = nil
        self.text = text
    }

    public static func == (a: SNSSNavigation, b: SNSSNavigation) -> Bool {
        a.tab == b.tab && a.index == b.index && a.transition == b.transition && a.timestamp == b.timestamp
            && a.httpStatus == b.httpStatus && a.record == b.record && a.url == b.url && a.title == b.title
            && a.referrer == b.referrer && a.originalRequestURL == b.originalRequestURL
    }

    /// Decodes the pickle of `bytes[contents]` as Chromium's `ReadFromPickle` does: the tab id,
    /// index, URL, title, page state and transition must be there; every later field is read
    /// when present. Nil when a required field is missing.
    public static func decode(_ bytes: [UInt8], _ contents: Range<Int>) -> SNSSNavigation? {
        guard var pickle = PickleReader(bytes, contents) else { return nil }
        var navigation = decode(&pickle)
        navigation?.record = contents
        return navigation
    }

    /// What can be read of a navigation whose record the file cuts short: the fields up to the
    /// cut, when the tab id, index and URL are whole; the title is kept when it is whole too.
    public static func decodeCut(_ bytes: [UInt8], _ contents: Range<Int>) -> SNSSNavigation? {
        guard var pickle = PickleReader(cut: bytes, contents), let tab = pickle.int32(), let index = pickle.int32(),
            let url = pickle.string(), !url.isEmpty
        else { return nil }
        return SNSSNavigation(
            tab: tab, index: index, url: url, title: pickle.string16() ?? "", transition: 0, referrer: "", originalRequestURL: "",
            timestamp: 0, httpStatus: 0, record: nil)
    }

    /// Decodes from a reader positioned at the tab id.
    static func decode(_ pickle: inout PickleReader) -> SNSSNavigation? {
        guard let tab = pickle.int32(), let index = pickle.int32(), let url = pickle.stringBytes(), let title = pickle.string16Bytes(),
            pickle.data() != nil, let transition = pickle.int32()
        else { return nil }
        var fields = Text.Encoded(bytes: pickle.bytes, url: url, title: title, referrer: nil, originalRequestURL: nil)
        // The type mask first: without it Chromium reads nothing more.
        guard pickle.int32() != nil else { return SNSSNavigation(tab: tab, index: index, transition: transition, text: .encoded(fields)) }
        fields.referrer = pickle.stringBytes()
        _ = pickle.int32()  // the obsolete referrer policy
        fields.originalRequestURL = pickle.stringBytes()
        _ = pickle.bool()  // is overriding the user agent
        var navigation = SNSSNavigation(tab: tab, index: index, transition: transition, text: .encoded(fields))
        navigation.timestamp = pickle.int64() ?? 0
        _ = pickle.string16()  // search terms, always empty
        navigation.httpStatus = pickle.int32() ?? 0
        return navigation
    }

    /// The four strings: decoded, or where they are in the bytes they were read from.
    private enum Text: Sendable {
        case decoded([String])
        case encoded(Encoded)

        /// The strings of a pickle: the file's bytes (shared, not copied) and where each string is.
        struct Encoded: Sendable {
            var bytes: [UInt8]
            var url: Range<Int>
            var title: Range<Int>
            var referrer: Range<Int>?
            var originalRequestURL: Range<Int>?
        }

        enum Field: Int {
            case url, title, referrer, originalRequestURL
        }

        func string(_ field: Field) -> String {
            switch self {
            case .decoded(let strings): return strings[field.rawValue]
            case .encoded(let encoded):
                switch field {
                case .url: return PickleReader.utf8(encoded.bytes, encoded.url)
                case .title: return PickleReader.utf16(encoded.bytes, encoded.title)
                case .referrer: return encoded.referrer.map { PickleReader.utf8(encoded.bytes, $0) } ?? ""
                case .originalRequestURL: return encoded.originalRequestURL.map { PickleReader.utf8(encoded.bytes, $0) } ?? ""
                }
            }
        }

        mutating func set(_ field: Field, _ value: String) {
            var strings: [String]
            switch self {
            case .decoded(let decoded): strings = decoded
            case .encoded: strings = [string(.url), string(.title), string(.referrer), string(.originalRequestURL)]
            }
            strings[field.rawValue] = value
            self = .decoded(strings)
        }
    }
}
