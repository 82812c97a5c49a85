import TestSupport
import Testing

@testable import SessionFormats

/// Nesting as each browser's own parser takes it: Foundation's 512 containers (the outermost
/// counted), SpiderMonkey's none, Chromium's 200; past the tree's depth a value is kept as its
/// bytes and written back unchanged.
@Suite struct JSONDepthTests {
    init() { Browsers.install() }

    /// `depth` arrays nested, holding `inner`.
    static func nested(_ depth: Int, _ inner: String = "") -> [UInt8] {
        Array((String(repeating: "[", count: depth) + inner + String(repeating: "]", count: depth)).utf8)
    }

    @Test(arguments: [(511, true), (512, true), (513, false)])
    func foundationTakes512Containers(depth: Int, taken: Bool) {
        let bytes = Self.nested(depth, "1")
        #expect(((try? JSONParser.parse(bytes, file: "f")) != nil) == taken)
        #expect(((try? JSONParser.check(bytes, file: "f")) != nil) == taken)
        // Salvage stops where Foundation stops, saying why.
        let salvage = JSONParser.salvage(bytes)
        #expect((salvage.damage == nil) == taken)
        if !taken { #expect(salvage.damage?.reason == "nested too deeply" && salvage.damage?.offset == 512) }
    }

    @Test func chromiumTakes200() {
        #expect((try? JSONParser.parse(Self.nested(200), file: "f", maxDepth: JSONParser.chromiumDepth)) != nil)
        #expect((try? JSONParser.parse(Self.nested(201), file: "f", maxDepth: JSONParser.chromiumDepth)) == nil)
    }

    /// No limit: a million levels parse, check, and print back byte for byte, on the stack of a
    /// thread the parser shares with every other reader.
    @Test func spiderMonkeyTakesAnyDepth() throws {
        let bytes = Array("{\"a\":".utf8) + Self.nested(1_000_000, "{\"b\":\"\\u00e9\"}") + Array("}".utf8)
        let value = try JSONParser.parse(bytes, file: "f", maxDepth: nil)
        try JSONParser.check(bytes, file: "f", maxDepth: nil)
        #expect(value.serializedBytes(pretty: false) == bytes)
        let salvage = JSONParser.salvage(bytes, maxDepth: nil)
        #expect(salvage.damage == nil && salvage.value == value)
    }

    /// Deeper than the tree, a value is its bytes: well formed or refused as the tree would be.
    @Test func pastTheTreeAValueIsItsBytes() throws {
        let inner = Self.nested(JSONParser.treeDepth + 5, "1, \"x\" , {\"k\": [true,null]}")
        let value = try JSONParser.parse(inner, file: "f")
        var node = value
        for _ in 0..<JSONParser.treeDepth {
            guard case .array(let elements) = node, let first = elements.first else { break }
            node = first
        }
        guard case .verbatim(let kept) = node else {
            Issue.record("no verbatim value at the tree's depth")
            return
        }
        #expect(kept == Array(inner.dropFirst(JSONParser.treeDepth).dropLast(JSONParser.treeDepth)))
        for broken in ["1,", "1 2", "\"\\q\"", "{\"k\" 1}", "{1:2}", "01", "[", "\"\u{1}\""] {
            let bytes = Self.nested(JSONParser.treeDepth + 3, broken)
            #expect((try? JSONParser.parse(bytes, file: "f")) == nil, "\(broken)")
            #expect((try? JSONParser.check(bytes, file: "f")) == nil, "\(broken)")
        }
    }
}
