import TestSupport
import Testing

@testable import SessionFormats

/// internal://local/sessionrestore and errorpage URLs with a per-launch uuidkey.
@Suite struct HistoryRestoreTests {
    init() { Browsers.install() }

    let restore = HistoryRestore(key: "6F1C2A8E-0000-4000-8000-123456789ABC")

    @Test func aHistoryRoundTrips() throws {
        let urls = ["https://a.example/?q=1&r=2", "https://b.example/#frag", "https://ü.example/ä b"]
        for index in urls.indices {
            let url = restore.restoreURL(history: urls, currentIndex: index)
            #expect(url.hasPrefix("internal://local/sessionrestore?history="))
            #expect(url.hasSuffix("&uuidkey=6F1C2A8E-0000-4000-8000-123456789ABC"))
            #expect(try restore.validate(url) == .restoreHistory(urls: urls, currentIndex: index))
        }
        // currentPage counts back from the last URL: 0 is the last, 1-N the first.
        let first = restore.restoreURL(history: urls, currentIndex: 0)
        #expect(HistoryRestore.percentDecode(first)?.contains("\"currentPage\":-2") == true)
    }

    @Test func pagesAndErrorPagesRoundTrip() throws {
        let real = "https://example.org/path?a=1&b=%20#top"
        #expect(try restore.validate(restore.pageURL(for: real)) == .restorePage(url: real))
        let error = restore.errorPageURL(for: real, parameters: [.init(name: "code", value: "-1009")])
        #expect(try restore.validate(error) == .errorPage(url: real, parameters: [.init(name: "code", value: "-1009")]))
    }

    @Test func aMissingOrWrongKeyIsRejected() {
        let other = HistoryRestore(key: "another-launch")
        #expect(throws: HistoryRestore.Rejection.wrongKey) { try restore.validate(other.pageURL(for: "https://x.example/")) }
        #expect(throws: HistoryRestore.Rejection.missingKey) {
            try restore.validate("internal://local/sessionrestore?url=https%3A%2F%2Fx.example%2F")
        }
        #expect(throws: HistoryRestore.Rejection.unknownPage("about")) {
            try restore.validate("internal://local/about?uuidkey=6F1C2A8E-0000-4000-8000-123456789ABC")
        }
        #expect(throws: HistoryRestore.Rejection.self) { try restore.validate("internal://local/sessionrestore?url=%zz&uuidkey=x") }
    }

    @Test func persistedInternalURLsUnwrapToTheRealPage() {
        let real = "https://example.org/a?b=c"
        let old = HistoryRestore(key: "an-old-launch")
        #expect(HistoryRestore.unwrapPersisted(old.pageURL(for: real)) == real)
        #expect(HistoryRestore.unwrapPersisted(old.errorPageURL(for: real)) == real)
        #expect(HistoryRestore.unwrapPersisted(old.pageURL(for: old.errorPageURL(for: real))) == real)
        #expect(HistoryRestore.unwrapPersisted(old.restoreURL(history: ["https://1.example/", real], currentIndex: 1)) == real)
        #expect(HistoryRestore.unwrapPersisted(real) == real)
        #expect(HistoryRestore.unwrapPersisted("internal://local/unknown?x=1") == "internal://local/unknown?x=1")
        #expect(HistoryRestore.isInternal("INTERNAL://local/sessionrestore"))
        #expect(!HistoryRestore.isInternal("https://internal.example/"))
    }
}
