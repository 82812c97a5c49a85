/// One entry of a tab's history as an UpdateTabNavigation command holds it (Chromium's
/// `SerializedNavigationEntry` pickle; docs/chromium-desktop-format.md, "The navigation pickle").
public struct SNSSNavigation: Sendable, Equatable {
    /// The tab it belongs to.
    public var tab: Int32
    /// Its place in the tab's history (not its place among the entries written).
    public var index: Int32
    public var url: String
    public var title: String
    /// `ui::PageTransition`.
    public var transition: Int32
    public var referrer: String
    public var originalRequestURL: String
    /// Microseconds since 1601 (0 when the pickle ends before it).
    public var timestamp: Int64
    /// The HTTP status code (0 when the pickle ends before it).
    public var httpStatus: Int32
    /// Where the command's contents are in the file it was read from (a rewrite copies them).
    public var record: Range<Int>?

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
        guard let tab = pickle.int32(), let index = pickle.int32(), let url = pickle.string(), let title = pickle.string16(),
            pickle.data() != nil, let transition = pickle.int32()
        else { return nil }
        var navigation = SNSSNavigation(
            tab: tab, index: index, url: url, title: title, transition: transition, referrer: "", originalRequestURL: "", timestamp: 0,
            httpStatus: 0, record: nil)
        // The type mask first: without it Chromium reads nothing more.
        guard pickle.int32() != nil else { return navigation }
        navigation.referrer = pickle.string() ?? ""
        _ = pickle.int32()  // the obsolete referrer policy
        navigation.originalRequestURL = pickle.string() ?? ""
        _ = pickle.bool()  // is overriding the user agent
        navigation.timestamp = pickle.int64() ?? 0
        _ = pickle.string16()  // search terms, always empty
        navigation.httpStatus = pickle.int32() ?? 0
        return navigation
    }
}
