import Foundation
import TestSupport
import Testing

@testable import SessionFormats

/// `JSONParser.salvage`: a well-formed document reads as `parse` reads it; a document cut at any
/// byte keeps every value completed before the cut, and says where the cut is.
@Suite struct JSONSalvageTests {
    init() { Browsers.install() }

    static let document = Array(
        #"{"a":[1,2.5,"three",{"x":null,"y":[true,false]}],"b":{"c":"d\/e","f":[]},"g":-7}"#.utf8)

    @Test func aWellFormedDocumentReadsAsParseReadsIt() throws {
        let salvage = JSONParser.salvage(Self.document)
        #expect(salvage.damage == nil)
        #expect(salvage.value == (try JSONParser.parse(Self.document, file: "d")))
    }

    @Test func aDocumentCutAtEveryByteKeepsWhatWasComplete() throws {
        let whole = try JSONParser.parse(Self.document, file: "d")
        guard case .array(let elements)? = whole["a"] else {
            Issue.record("no array")
            return
        }
        for length in 0..<Self.document.count {
            let salvage = JSONParser.salvage(Array(Self.document[..<length]))
            let damage = try #require(salvage.damage, "cut at \(length)")
            #expect(damage.offset <= length)
            guard length > 0 else {
                #expect(salvage.value == nil)
                continue
            }
            // Every element of "a" the cut leaves whole is there, equal to the whole document's.
            guard case .array(let kept)? = salvage.value?["a"] else { continue }
            for (index, element) in kept.enumerated() where damage.leavesWhole([.key("a"), .index(index)]) {
                #expect(element == elements[index], "cut at \(length), element \(index)")
            }
            #expect(kept.count <= elements.count)
        }
    }

    @Test func theDamageNamesTheOpenContainers() {
        let cut = Array(#"{"a":[1,{"x":"unterminated"#.utf8)
        let salvage = JSONParser.salvage(cut)
        #expect(salvage.damage?.path == [.key("a"), .index(1), .key("x")])
        #expect(salvage.damage?.offset == cut.count)
        #expect(salvage.value == .object([("a", .array([.int(1), .object([])]))]))
        #expect(salvage.damage?.leavesWhole([.key("a"), .index(0)]) == true)
        #expect(salvage.damage?.leavesWhole([.key("a"), .index(1)]) == false)
    }

    @Test func bytesAfterTheDocumentAreDamageAfterAWholeValue() {
        let salvage = JSONParser.salvage(Array(#"{"a":1} x"#.utf8))
        #expect(salvage.value == .object([("a", .int(1))]))
        #expect(salvage.damage?.offset == 8 && salvage.damage?.path == [])
    }

    @Test func aHostileDepthIsDamageNotACrash() {
        let deep = Array(String(repeating: "[", count: 100_000).utf8)
        let salvage = JSONParser.salvage(deep)
        #expect(salvage.damage != nil)
    }
}
