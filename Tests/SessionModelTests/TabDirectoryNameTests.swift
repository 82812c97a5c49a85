import SessionModel
import Testing

/// Tab directory names: lower-case hex, at least eight digits, and back.
@Suite struct TabDirectoryNameTests {
    @Test func namesAreEightLowerCaseHexDigits() {
        #expect(Tab.directoryName(for: 42) == "0000002a")
        #expect(Tab.directoryName(for: Int32.max) == "7fffffff")
    }

    @Test func namesParseBackToIDs() {
        for id: TabID in [1, 42, 0x1234_5678, Int32.max] {
            #expect(Tab.id(fromDirectoryName: Tab.directoryName(for: id)) == id)
        }
        #expect(Tab.id(fromDirectoryName: "0000002A") == nil)
        #expect(Tab.id(fromDirectoryName: "2a") == nil)
        #expect(Tab.id(fromDirectoryName: "00000000") == nil)
        #expect(Tab.id(fromDirectoryName: ".sessionctl-tmp.data.pb") == nil)
    }
}
