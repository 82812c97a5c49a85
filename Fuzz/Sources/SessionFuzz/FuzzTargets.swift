@_spi(Fuzzing) import ChromeIOS
@_spi(Fuzzing) import FirefoxIOS
@_spi(Fuzzing) import SessionForensics
@_spi(Fuzzing) import SessionFormats
import SessionModel

/// Every byte parser of sessionctl, by name, as a function that must return (not trap) on any input.
///
/// A target traps (`fatalError`) only when one of its invariants breaks: a decoded value that does
/// not round-trip, a result that depends on how the input was split, more output than a limit.
enum FuzzTargets {
    static let all: [(name: String, run: @Sendable ([UInt8]) -> Void)] = [
        ("session-metadata", ProtoFuzz.sessionMetadata),
        ("tab-data", ProtoFuzz.tabData),
        ("wire-salvage", ProtoFuzz.wireSalvage),
        ("legacy-plist", LegacyFuzz.plist),
        ("keyed-archive", KeyedArchiveFuzz.run),
        ("json-import", JSONFuzz.run),
        ("gzip", ArchiveFuzz.gzip),
        ("tar", ArchiveFuzz.tar),
        ("bundle", BundleFuzz.run),
        ("workload", WorkloadFuzz.run),
        ("html", ReportFuzz.run),
        ("firefox-window", FirefoxWindowFuzz.run),
        ("firefox-legacy", FirefoxLegacyFuzz.run),
        ("webkit-state", WebKitStateFuzz.run),
        ("mozlz4", MozLz4Fuzz.run),
        ("sessionstore", SessionstoreFuzz.run),
        ("snss", SNSSFuzz.run),
        ("pickle", SNSSFuzz.pickle),
        ("apple-lz4", SafariFuzz.appleLZ4),
        ("browser-state", SafariFuzz.browserState)
    ]
}

/// The protobuf files of the optimized format: strict decoding and the tolerant salvage path.
enum ProtoFuzz {
    @Sendable static func sessionMetadata(_ bytes: [UInt8]) {
        let session = try? ChromeProtoCodec.decodeSessionMetadata(bytes, id: "S", incognito: false)
        // The decoder without message objects must agree with swift-protobuf wherever it answers.
        if session != (try? ChromeProtoCodec.decodeSessionMetadataMessage(bytes, id: "S", incognito: false)) {
            fatalError("session_metadata.pb: the plain decoder and swift-protobuf disagree")
        }
        if let session {
            // A decoded message must re-encode and decode to the same value.
            let again = try? ChromeProtoCodec.decodeSessionMetadata(
                ChromeProtoCodec.encodeSessionMetadata(session), id: "S", incognito: false)
            if again != session { fatalError("session_metadata.pb does not round-trip") }
        }
    }

    @Sendable static func tabData(_ bytes: [UInt8]) {
        let history = try? ChromeProtoCodec.decodeTabData(bytes)
        if history != (try? ChromeProtoCodec.decodeTabDataMessage(bytes)) {
            fatalError("data.pb: the plain decoder and swift-protobuf disagree")
        }
        if let history {
            let again = try? ChromeProtoCodec.decodeTabData(ChromeProtoCodec.encodeTabData(history))
            if again != history { fatalError("data.pb does not round-trip") }
        }
    }

    @Sendable static func wireSalvage(_ bytes: [UInt8]) {
        let metadata = ChromeProtoCodec.salvageSessionMetadata(bytes, id: "S", incognito: false)
        if metadata.validPrefix > bytes.count { fatalError("salvage prefix beyond input") }
        let tab = ChromeProtoCodec.salvageTabData(bytes)
        if tab.damage == nil && (try? ChromeProtoCodec.decodeTabData(bytes)) == nil {
            fatalError("scanner accepted bytes the decoder refuses")
        }
    }
}

/// The legacy session.plist: binary plist reader and writer, keyed-archive decoder.
enum LegacyFuzz {
    @Sendable static func plist(_ bytes: [UInt8]) {
        if let plist = try? BinaryPlistReader.read(bytes), let value = try? plist.value() {
            // Whatever the reader builds, the writer must write and the reader read back.
            if (try? BinaryPlistReader.read(BinaryPlistWriter.encode(value))) == nil { fatalError("plist writer output unreadable") }
        }
        guard let window = try? LegacySessionCodec.decodeWindow(bytes) else { return }
        let again = try? LegacySessionCodec.decodeWindow(LegacySessionCodec.encode(window))
        if again?.tabs.count != window.tabs.count { fatalError("session.plist does not round-trip") }
        // What repair writes for the window, read back, needs no repair: a second run changes nothing.
        var rebuilder = LegacySessionRebuilder(id: "S", incognito: false, file: "Sessions/S/session.plist")
        guard let repaired = rebuilder.rebuild(window) else { return }
        guard let written = try? LegacySessionCodec.decodeWindow(LegacySessionCodec.encode(repaired)) else {
            fatalError("repaired session.plist unreadable")
        }
        var second = LegacySessionRebuilder(id: "S", incognito: false, file: "Sessions/S/session.plist")
        if second.rebuild(written) != nil { fatalError("legacy repair is not idempotent: \(second.actions.map(\.action))") }
    }
}

/// JSON documents given to import.
enum JSONFuzz {
    @Sendable static func run(_ bytes: [UInt8]) {
        // Checking without building takes what parsing takes, at Foundation's depth and at none;
        // and what is nested past the tree's depth prints as it was read.
        for depth in [JSONParser.foundationDepth, nil] as [Int?] {
            let built = try? JSONParser.parse(bytes, file: "fuzz.json", maxDepth: depth)
            let checked = (try? JSONParser.check(bytes, file: "fuzz.json", maxDepth: depth)) != nil
            if checked != (built != nil) { fatalError("check and parse disagree at depth \(String(describing: depth))") }
        }
        guard let value = try? JSONParser.parse(bytes, file: "fuzz.json") else { return }
        // The printed value parses, and prints the same again (3.0 may come back as 3).
        let printed = value.serializedBytes()
        guard let reparsed = try? JSONParser.parse(printed, file: "printed.json") else { fatalError("printed JSON unreadable") }
        if reparsed.serializedBytes() != printed { fatalError("printed JSON does not print the same again") }
        guard let sessions = try? InspectDocument.decode(value, file: "fuzz.json") else { return }
        // The streamed inspect document of what was imported is JSON laid out as the printer lays it out.
        let document = InspectDocument.document(sessions, history: true)
        guard let parsed = try? JSONParser.parse(document, file: "inspect.json") else { fatalError("inspect document unreadable") }
        if parsed.serializedBytes() != document { fatalError("inspect document layout differs from the printer's") }
    }
}

/// Firefox for iOS window files: salvage agrees with the strict parser on well-formed JSON, and a
/// window read is written and read back the same.
enum FirefoxWindowFuzz {
    @Sendable static func run(_ bytes: [UInt8]) {
        let salvage = JSONParser.salvage(bytes)
        if let strict = try? JSONParser.parse(bytes, file: "w") {
            if salvage.damage != nil || salvage.value != strict { fatalError("salvage differs from parse on well-formed JSON") }
        } else if salvage.damage == nil {
            fatalError("salvage found no damage where parse failed")
        }
        let file = FirefoxWindowDecoder.decode(bytes)
        guard let window = file.window else { return }
        // What repair writes of what was read (the tab cut short too) is what Firefox loads, or nothing.
        var salvaged = window
        if let cut = file.cutTab { salvaged.tabs.append(cut) }
        if let repaired = FirefoxRepairPlanner.loadableBytes(salvaged), !FirefoxWindowDecoder.decode(repaired).loadsInFirefox {
            fatalError("repair would write a window Firefox refuses")
        }
        // Written, read back and written again: the same bytes, the same tabs (a whole number
        // read as 3.0 is written as 3, so the first writing is the fixed point).
        let written = FirefoxWindowEncoder.encode(window)
        guard let again = FirefoxWindowDecoder.decode(written).window else { fatalError("a written window does not read") }
        if again.tabs.map(\.id) != window.tabs.map(\.id) || again.tabs.map(\.siteURL) != window.tabs.map(\.siteURL) {
            fatalError("a written window reads back other tabs")
        }
        if FirefoxWindowEncoder.encode(again) != written { fatalError("a window read does not write the same twice") }
    }
}

/// WebKit's session state (state.pb): a state that decodes names an entry as current, and the
/// history made of it commits that entry.
enum WebKitStateFuzz {
    @Sendable static func run(_ bytes: [UInt8]) {
        guard let state = try? WebKitSessionState.decode(bytes, file: "state.pb") else { return }
        if let current = state.currentIndex, !state.entries.indices.contains(current) { fatalError("current index outside the entries") }
        if state.currentIndex == nil, !state.entries.isEmpty { fatalError("entries without a current one") }
        let history = state.history(time: Timestamp(microseconds: 0))
        if history.items.count != state.entries.count || Int(history.lastCommittedIndex) != (state.currentIndex ?? -1) {
            fatalError("the history does not match the state")
        }
        // What sessionctl writes of a state decodes to the same state.
        if (try? WebKitSessionState.decode(state.encode(), file: "state.pb")) != state { fatalError("a state does not round-trip") }
    }
}

/// The report's escaping: whatever a profile's text, it adds no markup to the page.
enum ReportFuzz {
    @Sendable static func run(_ bytes: [UInt8]) {
        let text = String(decoding: bytes, as: UTF8.self)
        let escaped = HTML.escape(text)
        if escaped.contains(where: { "<>\"'".contains($0) }) { fatalError("escaped text keeps a bracket or a quote") }
        let controls = text.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }
        if !controls && HTML.unescape(escaped) != text { fatalError("escaped text does not read back") }
        func page(_ text: String) -> String {
            var tab = Tab(id: 1, title: text, url: text, navigationItemCount: 1)
            tab.history = TabHistory(lastCommittedIndex: 0, items: [NavigationItem(url: text, title: text)])
            let session = Session(
                id: text, incognito: false, activeIndex: 0, tabs: [tab],
                groups: [TabGroup(start: 0, count: 1, title: text, id: TabGroupID(high: 1, low: 1))])
            let report = ProfileReport(
                input: text, history: true, redacted: false, sessions: [session], errors: [],
                validation: ValidationReport(findings: [], sessions: 1, tabs: 1), entries: [], chromeBackups: [])
            return ReportPage.render(report)
        }
        let tags = { (html: String) in html.utf8.filter { $0 == UInt8(ascii: "<") }.count }
        if tags(page(text)) != tags(page("x")) { fatalError("text from a profile changed the page's markup") }
    }
}
