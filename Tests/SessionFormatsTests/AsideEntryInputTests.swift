import SessionModel
import TestSupport
import Testing

@testable import SessionFormats

/// Set-aside entries as inputs: their stamp, and the session id and incognito flag found from their place.
@Suite struct AsideEntryInputTests {
    init() { Browsers.install() }

    @Test func stampRoundTrip() throws {
        let time = try #require(Timestamp(iso8601: "2026-11-21T18:34:26.123456Z"))
        #expect(AsideStamp.format(time) == "20261121T183426.123456Z")
        #expect(AsideStamp.parse("20261121T183426.123456Z") == time)
        #expect(AsideStamp.format(.null) == nil)
    }

    @Test(arguments: [
        "", "20261121T183426Z", "20261121T183426.123456", "2026-11-21T18:34:26.123456Z",
        "20261321T183426.123456Z", "20261121T183426.12345xZ", "{SyntheticIdentifier}"
    ])
    func notStamps(_ text: String) {
        #expect(!AsideStamp.isStamp(text))
    }

    @Test func identityOfSessionDirectories() {
        func identity(_ path: String) -> [String] {
            let result = InputLocator.sessionIdentity(ancestry: path.split(separator: "/").map(String.init))
            return [result.id, result.incognito ? "incognito" : "regular"]
        }
        #expect(identity("p/SessionStorage/A") == ["A", "regular"])
        #expect(identity("p/OTR/SessionStorage/A") == ["A", "incognito"])
        #expect(identity("p/Backups/A/20261121T183426.123456Z") == ["A", "regular"])
        #expect(identity("p/OTR/Backups/A/20261121T183426.123456Z") == ["A", "incognito"])
        // A directory named like a stamp that is not inside Backups/<id>/ keeps its own name.
        #expect(identity("p/SessionStorage/20261121T183426.123456Z") == ["20261121T183426.123456Z", "regular"])
        #expect(identity("Backups/SessionStorage/A") == ["A", "regular"])
    }
}
