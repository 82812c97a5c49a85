import SessionFormats
import SessionModel
import TestSupport
import Testing

@testable import SessionForensics

/// The `sessionctl.diff/1` document as docs/cli.md shows it.
@Suite struct DiffDocumentTests {
    init() { Browsers.install() }

    typealias Data = DiffTestData

    @Test func documentOfAChangedSession() throws {
        var after = Data.session([5, 1, 2, 7])
        after.activeIndex = 2
        after.tabs[2].title = "Renamed"
        let diff = Differ.compare([Data.session([1, 2, 3, 5])], [after])
        let document = DiffDocument.encode(diff)
        #expect(document["schema"] == .string("sessionctl.diff/1"))
        #expect(document["identical"] == .bool(false))
        guard case .array(let sessions)? = document["sessions"], let session = sessions.first else {
            Issue.record("no sessions array")
            return
        }
        #expect(session["id"] == .string(Session.syntheticIdentifier))
        #expect(session["incognito"] == .bool(false))
        #expect(session["status"] == .string("changed"))
        #expect(session["activeIndex"] == .object([("from", .int(0)), ("to", .int(2))]))
        #expect(session["pinnedCount"] == .null)
        let tabs = session["tabs"]
        #expect(tabs?["added"] == .array([.object([("id", .int(7)), ("index", .int(3)), ("url", .string("https://example.com/7"))])]))
        #expect(tabs?["removed"] == .array([.object([("id", .int(3)), ("index", .int(2)), ("url", .string("https://example.com/3"))])]))
        #expect(tabs?["moved"] == .array([.object([("id", .int(5)), ("from", .int(3)), ("to", .int(0))])]))
        #expect(
            tabs?["changed"]
                == .array([
                    .object([
                        ("id", .int(2)), ("fields", .array([.string("title")])),
                        ("values", .object([("title", .object([("from", .string("\"Tab 2\"")), ("to", .string("\"Renamed\""))]))]))
                    ])
                ]))
        #expect(document["summary"]?["tabsAdded"] == .int(1) && document["summary"]?["tabsRemoved"] == .int(1))
        #expect(document["summary"]?["tabsMoved"] == .int(1) && document["summary"]?["tabsChanged"] == .int(1))
        #expect(document["summary"]?["sessionsChanged"] == .int(1))
        #expect(session["groups"] == .object([("added", .array([])), ("removed", .array([])), ("changed", .array([]))]))
    }

    /// A field the comparison flagged whose two renderings read the same is no change to a person.
    @Test func fieldsThatReadTheSameAreNotShownAsChanges() {
        let tab = Data.tab(4)
        let change = TabChange(fromIndex: 0, toIndex: 0, before: tab, after: tab, fields: [.pinned, .title], history: nil)
        let session = Differ.compare([Data.session([4])], [Data.session([4])]).sessions[0]
        #expect(change.values(in: session).isEmpty)
    }

    @Test func documentOfIdenticalInputs() {
        let document = DiffDocument.encode(Differ.compare([Data.session([1])], [Data.session([1])]))
        #expect(document["identical"] == .bool(true))
        #expect(
            document["sessions"].flatMap { value -> JSONValue? in
                guard case .array(let sessions) = value else { return nil }
                return sessions.first?["status"]
            } == .string("same"))
    }
}
