import Foundation
import TestSupport
import Testing

@testable import SessionFormats

/// WebKit session states written by sessionctl: they decode to what was written, and Foundation's
/// own property-list reader reads the plist after the version as WebKit's keys.
@Suite struct WebKitSessionStateEncodingTests {
    init() { Browsers.install() }

    static let state = WebKitSessionState(
        entries: [
            .init(url: "https://example.org/", title: "Example", originalURL: "https://example.org/"),
            .init(
                url: "https://www.example.com/after", title: "Après – 日本", originalURL: "http://example.com/before",
                frameState: [0, 1, 2, 255]),
            .init(url: "https://example.org/form", title: "", originalURL: "https://example.org/form", frameState: [])
        ],
        currentIndex: 1)

    @Test func aStateDecodesToWhatWasWritten() throws {
        for state in [Self.state, WebKitSessionState(entries: [], currentIndex: nil)] {
            let bytes = state.encode()
            #expect(Array(bytes[0..<4]) == [0, 0, 0, 2])
            #expect(try WebKitSessionState.decode(bytes, file: "s") == state)
        }
        for name in ["webkit-test-vector.state", "with-frame-state.state"] {
            let state = try WebKitSessionState.decode(try WebKitSessionStateTests.bytes(name), file: name)
            #expect(try WebKitSessionState.decode(state.encode(), file: name) == state, "\(name)")
        }
    }

    @Test func foundationReadsWebKitsKeys() throws {
        let bytes = Self.state.encode()
        let object = try PropertyListSerialization.propertyList(from: Data(bytes[4...]), options: [], format: nil)
        let top = try #require(object as? [String: Any])
        #expect(Set(top.keys) == ["SessionHistory", "IsAppInitiated"])
        #expect(top["IsAppInitiated"] as? Bool == true)
        let history = try #require(top["SessionHistory"] as? [String: Any])
        #expect((history["SessionHistoryVersion"] as? NSNumber)?.intValue == 1)
        #expect((history["SessionHistoryCurrentIndex"] as? NSNumber)?.intValue == 1)
        let entries = try #require(history["SessionHistoryEntries"] as? [[String: Any]])
        #expect(entries.map { $0["SessionHistoryEntryURL"] as? String } == Self.state.entries.map(\.url))
        #expect(entries.map { $0["SessionHistoryEntryTitle"] as? String } == Self.state.entries.map(\.title))
        #expect(entries.map { $0["SessionHistoryEntryOriginalURL"] as? String } == Self.state.entries.map(\.originalURL))
        #expect(entries.map { ($0["SessionHistoryEntryData"] as? Data).map { [UInt8]($0) } } == Self.state.entries.map(\.frameState))
        #expect(Set(entries[0].keys) == ["SessionHistoryEntryURL", "SessionHistoryEntryTitle", "SessionHistoryEntryOriginalURL"])
    }

    /// As WebKit writes a list without a current item: the history's version alone.
    @Test func aStateWithoutACurrentIndexIsAnEmptyHistory() throws {
        let bytes = WebKitSessionState(entries: Self.state.entries, currentIndex: nil).encode()
        let top = try #require(
            try PropertyListSerialization.propertyList(from: Data(bytes[4...]), options: [], format: nil) as? [String: Any])
        let history = try #require(top["SessionHistory"] as? [String: Any])
        #expect(Array(history.keys) == ["SessionHistoryVersion"])
        #expect(try WebKitSessionState.decode(bytes, file: "s") == WebKitSessionState(entries: [], currentIndex: nil))
    }
}
