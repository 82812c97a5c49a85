import Foundation
import SessionModel
import Testing

/// Tab values: ids, directory names and the fields the legacy format adds.
@Suite struct TabModelTests {
    @Test func stableIdentifierDefaultsToNilAndSurvivesCoding() throws {
        #expect(Tab(id: 1).stableIdentifier == nil)
        let tab = Tab(id: 9, title: "T", stableIdentifier: "6F1C2D3E-0000-4000-8000-00000000ABCD")
        let decoded = try JSONDecoder().decode(Tab.self, from: JSONEncoder().encode(tab))
        #expect(decoded == tab)
        #expect(decoded.stableIdentifier == "6F1C2D3E-0000-4000-8000-00000000ABCD")
    }

    /// The rare fields kept out of line still code flat, one key each, and a tab whose rare fields
    /// are all empty equals one built so, however it was decoded.
    @Test func rareFieldsCodeFlatAndEmptyOnesLeaveNoBox() throws {
        var tab = Tab(id: 3, title: "T", opener: Opener(index: 0, navigationIndex: 1), pinned: true)
        tab.history = TabHistory(lastCommittedIndex: 0, items: [NavigationItem(url: "https://a/")])
        let coded = try JSONSerialization.jsonObject(with: JSONEncoder().encode(tab)) as? [String: Any]
        #expect(coded?["pinned"] as? Bool == true && coded?["opener"] != nil && coded?["history"] != nil && coded?["extras"] == nil)
        #expect(try JSONDecoder().decode(Tab.self, from: JSONEncoder().encode(tab)) == tab)
        let plain = try JSONDecoder().decode(Tab.self, from: Data(#"{"id": 4, "pinned": false, "unknownFields": []}"#.utf8))
        #expect(plain == Tab(id: 4))
        var cleared = tab
        cleared.opener = nil
        cleared.pinned = false
        cleared.history = nil
        #expect(cleared == Tab(id: 3, title: "T") && cleared.hashValue == Tab(id: 3, title: "T").hashValue)
    }

    @Test func directoryNamesRoundTrip() {
        for id: TabID in [1, 12, 255, 0x7FFF_FFFF] {
            #expect(Tab.id(fromDirectoryName: Tab.directoryName(for: id)) == id)
        }
        #expect(Tab.directoryName(for: 12) == "0000000c")
        #expect(Tab.id(fromDirectoryName: "00000000") == nil)
        #expect(Tab.id(fromDirectoryName: "0000000C") == nil)
    }
}
