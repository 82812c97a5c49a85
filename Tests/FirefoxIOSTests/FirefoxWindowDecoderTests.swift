import Foundation
import TestSupport
import Testing

@testable import FirefoxIOS
@testable import SessionFormats

/// Firefox for iOS window files (Fixtures/firefox-ios, written by Python's json as Foundation's
/// JSONEncoder lays them out): read tolerantly, and judged as Firefox's own decoder judges them.
@Suite struct FirefoxWindowDecoderTests {
    init() { Browsers.install() }

    static let directory = Repository.path("Fixtures/firefox-ios")
    static let window = "E3F1A7C2-5B4D-4E6F-8A9B-0C1D2E3F4A5B"
    static let current = "\(directory)/profile/profile.profile/window-data/window-\(window)"
    static let tabs = [
        "0F1E2D3C-4B5A-4968-8776-655443322110", "1A2B3C4D-5E6F-4A0B-9C8D-7E6F5A4B3C2D",
        "2B3C4D5E-6F7A-4B1C-8D9E-0F1A2B3C4D5E", "3C4D5E6F-7A8B-4C2D-9E0F-1A2B3C4D5E6F"
    ]

    static func bytes(_ path: String) throws -> [UInt8] {
        [UInt8](try #require(FileManager.default.contents(atPath: path), "\(path)"))
    }

    /// Firefox's window data as its Codable types declare it (the keys and types it requires),
    /// decoded by Foundation's JSONDecoder: the verdict the reader's `loadsInFirefox` must match.
    struct StrictWindow: Decodable {
        let id: UUID
        let activeTabId: UUID
        let tabData: [StrictTab]
    }

    struct StrictTab: Decodable {
        let id: UUID
        let title: String?
        let siteUrl: String
        let faviconURL: String?
        let isPrivate: Bool
        let lastUsedTime: Date
        let createdAtTime: Date
        let tabGroupData: StrictGroup?
        let temporaryDocumentSession: [URL: URL]?
    }

    struct StrictGroup: Decodable {
        let searchTerm: String?
        let searchUrl: String?
        let nextUrl: String?
        let tabHistoryCurrentState: String?
    }

    static func foundationDecodes(_ bytes: [UInt8]) -> Bool {
        (try? JSONDecoder().decode(StrictWindow.self, from: Data(bytes))) != nil
    }

    @Test func theCurrentFileReadsWhole() throws {
        let bytes = try Self.bytes(Self.current)
        let file = FirefoxWindowDecoder.decode(bytes)
        #expect(file.loadsInFirefox && Self.foundationDecodes(bytes))
        let window = try #require(file.window)
        #expect(window.id == Self.window && window.activeTabID == Self.tabs[1])
        #expect(window.tabs.map(\.id) == Self.tabs)
        #expect(window.tabs.map(\.isPrivate) == [false, false, true, false])
        #expect(window.tabs[0].siteURL == "https://www.mozilla.org/en-US/")
        #expect(window.tabs[0].faviconURL == "https://www.mozilla.org/favicon.ico")
        #expect(window.tabs[3].siteURL == "internal://local/about/home" && window.tabs[3].title == "")
        #expect(window.tabs[1].searchTerm == "firefox ios")
        // 2026-11-20T09:05:30.25Z in seconds since 2001-01-01, as Foundation reads the Date.
        let strict = try JSONDecoder().decode(StrictWindow.self, from: Data(bytes))
        #expect(window.tabs[1].lastUsedTime == strict.tabData[1].lastUsedTime.timeIntervalSinceReferenceDate)
        #expect(window.tabs[1].lastUsedTime == 816_858_330.25)
        #expect(window.others.isEmpty && window.tabs.allSatisfy(\.others.isEmpty))
    }

    @Test func anEarlyFileLacksWhatCurrentFirefoxRequires() throws {
        let bytes = try Self.bytes("\(Self.directory)/early-window")
        let file = FirefoxWindowDecoder.decode(bytes)
        #expect(!file.loadsInFirefox && !Self.foundationDecodes(bytes))
        #expect(file.window?.isPrimary == true && file.window?.tabs.count == 2)
        #expect(file.refusals.map(\.description) == [".tabData[0].createdAtTime: missing", ".tabData[1].createdAtTime: missing"])
    }

    @Test func aTruncatedFileKeepsEveryCompleteTab() throws {
        let bytes = try Self.bytes("\(Self.directory)/truncated-window")
        let file = FirefoxWindowDecoder.decode(bytes)
        #expect(!file.loadsInFirefox && !Self.foundationDecodes(bytes))
        #expect(file.window?.tabs.map(\.id) == Array(Self.tabs[0..<2]))
        #expect(file.cutTab?.id == Self.tabs[2] && file.cutTab?.title == "Private page")
        let damage = try #require(file.damage)
        #expect(damage.offset == bytes.count && damage.path.prefix(2) == [.key("tabData"), .index(2)])
        #expect(file.refusals.isEmpty, "a cut file's missing keys are the damage's, not refusals")
    }

    @Test func unknownKeysSurviveARewriteThatFoundationStillReads() throws {
        let bytes = try Self.bytes("\(Self.directory)/unknown-keys-window")
        let file = FirefoxWindowDecoder.decode(bytes)
        #expect(file.loadsInFirefox && Self.foundationDecodes(bytes))
        let window = try #require(file.window)
        #expect(window.others.map(\.key) == ["windowTitle", "futureList"])
        #expect(window.tabs[0].others.map(\.key) == ["isPinned"])
        #expect(window.tabs[0].temporaryDocumentSession != nil)
        let rewritten = FirefoxWindowEncoder.encode(window)
        #expect(FirefoxWindowDecoder.decode(rewritten).window == window)
        #expect(Self.foundationDecodes(rewritten))
        // Every key of the file is in the rewrite, at the window and in the tab.
        func keys(_ value: JSONValue?) -> Set<String> {
            guard case .object(let members)? = value else { return [] }
            return Set(members.map(\.0))
        }
        let before = try JSONParser.parse(bytes, file: "w")
        let after = try JSONParser.parse(rewritten, file: "w")
        #expect(keys(after) == keys(before))
        guard case .array(let beforeTabs)? = before["tabData"], case .array(let afterTabs)? = after["tabData"] else {
            Issue.record("tabData is not an array in the file or in its rewrite")
            return
        }
        #expect(keys(afterTabs.first) == keys(beforeTabs.first) && keys(afterTabs.first).contains("isPinned"))
    }

    /// Each key of each tab removed, or given a value of another type: the reader refuses exactly
    /// where Foundation's decoder fails.
    @Test func refusalsAgreeWithFoundationOnEveryMutation() throws {
        let original = try JSONParser.parse(try Self.bytes(Self.current), file: "w")
        guard case .object(let members) = original, case .array(let tabs)? = original["tabData"] else {
            Issue.record("not a window")
            return
        }
        var mutations: [JSONValue] = []
        func replacingTab(_ index: Int, _ tab: JSONValue) -> JSONValue {
            var tabs = tabs
            tabs[index] = tab
            return .object(members.map { $0.0 == "tabData" ? ($0.0, .array(tabs)) : $0 })
        }
        for (index, tab) in tabs.enumerated() {
            guard case .object(let keys) = tab else { continue }
            for (position, key) in keys.enumerated() {
                var removed = keys
                removed.remove(at: position)
                mutations.append(replacingTab(index, .object(removed)))
                for other: JSONValue in [.string("x"), .int(7), .bool(true), .null, .array([]), .object([])] {
                    var changed = keys
                    changed[position] = (key.0, other)
                    mutations.append(replacingTab(index, .object(changed)))
                }
            }
        }
        for key in ["id", "activeTabId", "tabData"] {
            mutations.append(.object(members.filter { $0.0 != key }))
            mutations.append(.object(members.map { $0.0 == key ? ($0.0, .int(1)) : $0 }))
        }
        for mutation in mutations {
            let bytes = mutation.serializedBytes(pretty: false)
            let ours = FirefoxWindowDecoder.decode(bytes).loadsInFirefox
            #expect(ours == Self.foundationDecodes(bytes), "\(String(decoding: bytes, as: UTF8.self))")
        }
    }

    @Test func windowFileNamesCarryTheirUUID() {
        #expect(FirefoxIOSLayout.windowID(fromFileName: "window-\(Self.window)") == Self.window)
        #expect(FirefoxIOSLayout.windowID(fromFileName: "window-\(Self.window.lowercased())") == Self.window.lowercased())
        #expect(FirefoxIOSLayout.windowID(fromFileName: "window-1234") == nil)
        #expect(FirefoxIOSLayout.windowID(fromFileName: "tab-\(Self.window)") == nil)
    }

    @Test func hostileBytesNeverTrap() {
        let alphabet = Array(#"{}[]",:0.5-e tfnul"aid"#.utf8)
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2000 {
            let length = Int.random(in: 0..<64, using: &generator)
            let bytes: [UInt8] = (0..<length).map { _ in alphabet[Int.random(in: 0..<alphabet.count, using: &generator)] }
            _ = FirefoxWindowDecoder.decode(bytes)
        }
    }
}

/// Where Firefox's decoder and a reader could part ways beyond one key's type: repeated keys,
/// numbers past a Double's range, and the values inside a tab's group and document session.
@Suite struct FirefoxWindowEdgeTests {
    init() { Browsers.install() }

    static let window = FirefoxWindowDecoderTests.window
    static let tab = FirefoxWindowDecoderTests.tabs[0]

    static func document(tab members: String, window extra: String = "") -> [UInt8] {
        Array(
            #"{"id":"\#(window)","activeTabId":"\#(tab)"\#(extra),"tabData":[{"id":"\#(tab)","siteUrl":"https://a.example/","isPrivate":false,"lastUsedTime":1,"createdAtTime":2\#(members)}]}"#
                .utf8)
    }

    @Test(arguments: [
        ("", true), (#","lastUsedTime":1e400"#, true), (#","title":null"#, true), (#","tabGroupData":{"searchTerm":7}"#, false),
        (#","tabGroupData":{"searchTerm":null,"nextUrl":"https://b.example/"}"#, true),
        (#","temporaryDocumentSession":["file:///a.pdf","https://a.example/a.pdf"]"#, true),
        (#","temporaryDocumentSession":["file:///a.pdf"]"#, false), (#","temporaryDocumentSession":[1,2]"#, false)
    ])
    func agreesWithFoundation(members: String, loads: Bool) {
        let bytes = Self.document(tab: members)
        #expect(FirefoxWindowDecoder.decode(bytes).loadsInFirefox == loads, "\(members)")
        #expect(FirefoxWindowDecoderTests.foundationDecodes(bytes) == loads, "Foundation: \(members)")
    }

    /// A repeated key: the reader keeps the value Foundation decodes.
    @Test func aRepeatedKeyReadsAsFoundationReadsIt() throws {
        let bytes = Self.document(tab: #","siteUrl":"https://second.example/""#)
        let strict = try JSONDecoder().decode(FirefoxWindowDecoderTests.StrictWindow.self, from: Data(bytes))
        let ours = try #require(FirefoxWindowDecoder.decode(bytes).window)
        #expect(ours.tabs.first?.siteURL == strict.tabData.first?.siteUrl)
    }

    @Test func anIsPrimaryOfAnotherTypeIsKept() throws {
        let window = try #require(FirefoxWindowDecoder.decode(Self.document(tab: "", window: #","isPrimary":"yes""#)).window)
        #expect(window.isPrimary == nil && window.others == [JSONMember("isPrimary", .string("yes"))])
    }
}
