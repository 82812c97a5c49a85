import Foundation
import SessionModel
import TestSupport
import Testing

@testable import SessionFormats

/// WebKit's session state (state.pb, Firefox's tab-session-data): WebKit's own API test blob,
/// and blobs from Python's plistlib laid out as WebKit writes them (Fixtures/webkit).
@Suite struct WebKitSessionStateTests {
    init() { Browsers.install() }

    static func bytes(_ name: String) throws -> [UInt8] {
        let path = Corpus.repository.appendingPathComponent("Fixtures/webkit/\(name)").path
        return [UInt8](try #require(FileManager.default.contents(atPath: path), "\(path)"))
    }

    /// WebKit's test restores this blob with three items back and https://webkit.org/ current.
    @Test func webKitsOwnTestBlobReadsAsWebKitRestoresIt() throws {
        let state = try WebKitSessionState.decode(try Self.bytes("webkit-test-vector.state"), file: "state.pb")
        #expect(state.entries.map(\.url) == ["favorites://", "http://example.com/", "https://www.iana.org/", "https://webkit.org/"])
        #expect(state.currentIndex == 3)
        #expect(state.entries.allSatisfy { $0.title.isEmpty && $0.frameState == nil && $0.originalURL == $0.url })
        let history = state.history(time: Timestamp(microseconds: 42))
        #expect(history.lastCommittedIndex == 3 && history.items.count == 4)
        #expect(history.lastCommittedItem?.url == "https://webkit.org/")
        #expect(history.items.allSatisfy { $0.timestamp == Timestamp(microseconds: 42) })
    }

    @Test func entriesKeepTitlesOriginalURLsAndFrameState() throws {
        let state = try WebKitSessionState.decode(try Self.bytes("with-frame-state.state"), file: "state.pb")
        #expect(state.currentIndex == 1)
        #expect(state.entries.map(\.title) == ["Example Domain", "A form", "After the redirect"])
        #expect(state.entries[2].originalURL == "http://example.com/before" && state.entries[2].url == "https://www.example.com/after")
        let form = try #require(state.entries[1].frameState)
        let units = stride(from: 12, to: form.count - 1, by: 2).map { UInt16(form[$0]) | UInt16(form[$0 + 1]) << 8 }
        #expect(String(decoding: units, as: UTF16.self) == "name=Ada Lovelace&card=4111")
    }

    @Test(arguments: [
        ("truncated.state", "damaged at byte"), ("version-1.state", "version 1"), ("webkit-test-vector.state", "")
    ])
    func whatWebKitRefusesIsDamage(name: String, reason: String) throws {
        let bytes = try Self.bytes(name)
        if reason.isEmpty {
            #expect(throws: Never.self) { try WebKitSessionState.decode(bytes, file: "state.pb") }
            return
        }
        #expect {
            try WebKitSessionState.decode(bytes, file: "state.pb")
        } throws: { error in
            "\(error)".contains(reason) || (error as? FormatError)?.description.contains(reason) == true
        }
    }

    /// The gallery's stand-in state.pb files are not WebKit's: damage, never a history.
    @Test func aFileThatIsNotAStateIsDamage() {
        for bytes in [Array("bplist00-web-view-state".utf8), [], [0, 0, 0, 2], [0, 0, 0, 2] + Array("bplist00".utf8)] {
            #expect(throws: FormatError.self) { try WebKitSessionState.decode(bytes, file: "state.pb") }
        }
    }

    /// States built here with the project's binary plist writer, for what WebKit's history
    /// decoding decides beyond the fixtures: a list without a current index reads empty; a
    /// current index needs entries and must name one.
    static func state(_ history: [String: PlistValue]) -> [UInt8] {
        [0, 0, 0, 2] + BinaryPlistWriter.encode(.dictionary(["SessionHistory": .dictionary(history)]))
    }

    static let entry = PlistValue.dictionary([
        "SessionHistoryEntryURL": .string("https://a.example/"), "SessionHistoryEntryTitle": .string("A"),
        "SessionHistoryEntryOriginalURL": .string("https://a.example/")
    ])

    @Test func theCurrentIndexDecidesAsInWebKit() throws {
        let noIndex = try WebKitSessionState.decode(Self.state(["SessionHistoryEntries": .array([Self.entry])]), file: "s")
        #expect(noIndex.entries.isEmpty && noIndex.currentIndex == nil)
        let good = try WebKitSessionState.decode(
            Self.state([
                "SessionHistoryVersion": .integer(1), "SessionHistoryCurrentIndex": .integer(0),
                "SessionHistoryEntries": .array([Self.entry])
            ]),
            file: "s")
        #expect(good.entries.count == 1 && good.currentIndex == 0)
        for refused: [String: PlistValue] in [
            ["SessionHistoryCurrentIndex": .integer(0)],
            ["SessionHistoryCurrentIndex": .integer(0), "SessionHistoryEntries": .array([])],
            ["SessionHistoryCurrentIndex": .integer(1), "SessionHistoryEntries": .array([Self.entry])],
            ["SessionHistoryCurrentIndex": .integer(-1), "SessionHistoryEntries": .array([Self.entry])],
            [
                "SessionHistoryVersion": .integer(2), "SessionHistoryCurrentIndex": .integer(0),
                "SessionHistoryEntries": .array([Self.entry])
            ],
            [
                "SessionHistoryCurrentIndex": .integer(0),
                "SessionHistoryEntries": .array([.dictionary(["SessionHistoryEntryURL": .string("x")])])
            ]
        ] {
            #expect(throws: FormatError.self, "\(refused)") { try WebKitSessionState.decode(Self.state(refused), file: "s") }
        }
    }

    @Test func everyCutOfABlobIsDamageOrAHistoryNeverATrap() throws {
        let bytes = try Self.bytes("with-frame-state.state")
        for length in 0..<bytes.count {
            _ = try? WebKitSessionState.decode(Array(bytes[..<length]), file: "state.pb")
        }
    }
}
