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

    @Test func directoryNamesRoundTrip() {
        for id: TabID in [1, 12, 255, 0x7FFF_FFFF] {
            #expect(Tab.id(fromDirectoryName: Tab.directoryName(for: id)) == id)
        }
        #expect(Tab.directoryName(for: 12) == "0000000c")
        #expect(Tab.id(fromDirectoryName: "00000000") == nil)
        #expect(Tab.id(fromDirectoryName: "0000000C") == nil)
    }
}
