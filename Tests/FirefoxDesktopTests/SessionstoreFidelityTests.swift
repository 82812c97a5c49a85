import TestSupport
import Testing

@testable import FirefoxDesktop
@testable import SessionFormats

/// What Firefox's own reading does with unusual but loadable session documents, held to its code:
/// `JSON.parse` (lone surrogates taken, the last of a repeated key kept), SessionFile's version
/// check (`parsed.version || [...]`, `parseFloat`), SessionStartup's crash check (truthiness), and
/// what a rewrite keeps of a damaged document.
@Suite struct SessionstoreFidelityTests {
    init() { Browsers.install() }

    private func file(_ text: String) -> SessionstoreFile {
        SessionstoreFile.decode(Array(text.utf8), file: "f", compressed: false)
    }

    @Test func anEscapedLoneSurrogateLoadsAsInFirefox() throws {
        let text =
            #"{"windows":[{"tabs":[{"entries":[{"url":"https://a/","title":"x\ud83d"}]},{"entries":[{"url":"https://b/","title":"\udc00y"}]}]}]}"#
        let read = file(text)
        #expect(read.loadsInFirefox, "\(read.whyNotLoaded ?? "")")
        #expect(read.document?.windows.first?.tabs.map { $0.entries[0].title } == ["x\u{FFFD}", "\u{FFFD}y"])
        // The strict parser, used for everything else, still refuses it.
        #expect(throws: FormatError.self) { try JSONParser.parse(Array(text.utf8), file: "f") }
        // A lone high surrogate before a whole pair: the pair is read as it is.
        let pair = file(#"{"windows":[{"tabs":[{"entries":[{"url":"u","title":"\ud83d\ud83d\ude00"}]}]}]}"#)
        #expect(pair.document?.windows.first?.tabs.first?.entries.first?.title == "\u{FFFD}😀")
    }

    @Test func aKeyWrittenTwiceIsReadAsItsLastValueOnBothReadings() throws {
        let text = #"{"version":["sessionrestore",1],"windows":[],"version":["sessionrestore",9]}"#
        #expect(file(text).whyNotLoaded?.contains("newer") == true)
        #expect(SessionstoreDecoder.salvaged(Array(text.utf8)).document?.versionRefusal != nil)
        let tabs = #"{"windows":[{"tabs":[{"entries":[{"url":"a"}]}],"tabs":[{"entries":[{"url":"b"}]},{"entries":[{"url":"c"}]}]}]}"#
        #expect(file(tabs).document?.windows.first?.tabs.map { $0.entries[0].url } == ["b", "c"])
        // A rewrite leaves one of each key, with the value written.
        let document = try #require(file(#"{"windows":[{"tabs":[]}],"x":1,"windows":[]}"#).document)
        var merged = try #require(SessionstoreMerge([document]))
        merged.document.windows = [
            SessionstoreWindow(tabs: [
                SessionstoreTab(
                    entries: [SessionstoreEntry(url: "z")], raw: .value(.object([("entries", .array([.object([("url", .string("z"))])]))])))
            ])
        ]
        let written = String(decoding: merged.json, as: UTF8.self)
        #expect(written.components(separatedBy: "\"windows\"").count == 2, "\(written)")
        #expect(file(written).document?.tabCount == 1)
    }

    @Test func theVersionCheckIsFirefoxs() {
        for accepted in [
            #"0"#, #""""#, #"false"#, #"null"#, #"["sessionrestore","2e-5"]"#, #"["sessionrestore",1]"#, #"["sessionrestore"," 0.5x"]"#
        ] {
            #expect(file(#"{"windows":[],"version":"# + accepted + "}").loadsInFirefox, "\(accepted)")
        }
        for refused in [
            #"1"#, #"["sessionrestore",2]"#, #"["sessionrestore",true]"#, #"["sessionrestore"]"#, #"["other",1]"#,
            #"["sessionrestore","Infinity"]"#
        ] {
            #expect(!file(#"{"windows":[],"version":"# + refused + "}").loadsInFirefox, "\(refused)")
        }
    }

    @Test func theCrashCheckIsSessionStartups() throws {
        func running(_ state: String) -> Bool? { file(#"{"windows":[],"session":{"state":"# + state + "}}").document?.stateSaysRunning }
        #expect(running(#""running""#) == true && running(#""""#) == true && running("0") == true && running("null") == true)
        #expect(running(#""stopped""#) == false && running("1") == false)
        #expect(file(#"{"windows":[]}"#).document?.stateSaysRunning == true)
        // Crashes in a row at the largest integer: counted, not trapped.
        var document = SessionstoreDocument()
        document.recentCrashes = Int.max
        let (restore, _) = SessionstoreLoad.restore(document: document, settings: FirefoxDesktopSettings(), anyFile: true)
        #expect(restore == .recoverOnPage)
    }

    @Test func whatTheDamageCutIsLeftOutOfARewrite() throws {
        // Cut inside the second closed tab's first entry.
        let text =
            #"{"windows":[{"tabs":[{"entries":[{"url":"https://a/"}]}],"_closedTabs":[{"state":{"entries":[{"url":"https://b/"}]},"closedAt":1},{"state":{"entries":[{"url":"https://c.exa"#
        let read = SessionstoreDecoder.salvaged(Array(text.utf8))
        let window = try #require(read.document?.windows.first)
        #expect(window.closedTabs.count == 1)
        guard case .array(let closed)? = SessionstoreDecoder.member(window.raw, "_closedTabs") else {
            Issue.record("no _closedTabs")
            return
        }
        #expect(closed.count == 1)
        let base = try #require(read.document)
        let merged = try #require(SessionstoreMerge([base]))
        let again = file(String(decoding: merged.json, as: UTF8.self))
        #expect(again.loadsInFirefox && again.document?.windows.first?.closedTabs.count == 1)
        // Cut inside a tab's form data: the tab and its entries stay, the cut value goes.
        let form = #"{"windows":[{"tabs":[{"entries":[{"url":"https://a/"}],"formdata":{"id":{"q":"unfini"#
        let tab = try #require(SessionstoreDecoder.salvaged(Array(form.utf8)).document?.windows.first?.tabs.first)
        #expect(tab.entries.map(\.url) == ["https://a/"])
        #expect(SessionstoreDecoder.member(SessionstoreDecoder.member(tab.raw, "formdata"), "id") == .object([]))
    }

    @Test func aPageOpenTwiceInOneFileStaysTwice() throws {
        func document(_ urls: [String]) -> SessionstoreDocument {
            SessionstoreDocument(windows: [SessionstoreWindow(tabs: urls.map { SessionstoreTab(entries: [SessionstoreEntry(url: $0)]) })])
        }
        let merged = try #require(SessionstoreMerge([document(["a"]), document(["a", "b", "b"]), document(["b", "c"])]))
        #expect(merged.document.windows[0].tabs.map { $0.entries[0].url } == ["a", "b", "b", "c"])
        #expect(merged.contributed == [1, 2, 1])
    }
}
