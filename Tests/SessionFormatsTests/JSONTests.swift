import SessionFormats
import SessionModel
import TestSupport
import Testing

@Suite struct JSONTests {
    init() { Browsers.install() }

    @Test func parsesAndPrintsInOrder() throws {
        let text = #"{"b": [1, -2, 3.5, true, null], "a": "\u00e9\ud83d\ude00\n"}"#
        let value = try JSONParser.parse(Array(text.utf8), file: "t")
        #expect(value["a"] == .string("é😀\n"))
        #expect(value.serialized(pretty: false) == #"{"b":[1,-2,3.5,true,null],"a":"é😀\n"}"#)
    }

    @Test func integersPrintAsTheirDecimalDigits() {
        let values: [Int64] = [0, 1, -1, 9, 10, -10, 1_234_567_890, .max, .min, .max - 1, .min + 1]
        for value in values {
            #expect(JSONValue.int(value).serialized(pretty: false) == String(value))
        }
        #expect(
            JSONValue.array(values.map(JSONValue.int)).serialized(pretty: false) == "[" + values.map(String.init).joined(separator: ",")
                + "]")
    }

    /// Integers of up to 18 digits (read without a String) and of 19 (read through one) parse to
    /// their value; beyond Int64 a number is a double; strings with and without escapes alike.
    @Test func parsesIntegersAtEveryWidthAndStringsInOnePieceOrNot() throws {
        let integers: [Int64] = [
            0, 7, -7, 123_456_789_012_345_678, -123_456_789_012_345_678, 999_999_999_999_999_999,
            1_000_000_000_000_000_000, .max, .min
        ]
        for value in integers {
            #expect(try JSONParser.parse(Array(String(value).utf8), file: "t") == .int(value))
        }
        #expect(try JSONParser.parse(Array("-0".utf8), file: "t") == .int(0))
        #expect(try JSONParser.parse(Array("9223372036854775808".utf8), file: "t") == .double(9_223_372_036_854_775_808))
        #expect(
            try JSONParser.parse(Array(#"["plain é", "esc\"aped", ""]"#.utf8), file: "t")
                == .array([.string("plain é"), .string("esc\"aped"), .string("")]))
        do {
            _ = try JSONParser.parse([0x22, 0x61, 0xFF, 0x22], file: "t")
            Issue.record("invalid UTF-8 parsed")
        } catch {
            if case .damaged(_, let at, _) = error { #expect(at == 1) } else { Issue.record("\(error)") }
        }
    }

    @Test func reportsOffsets() {
        for (text, offset) in [("{\"a\": tru}", 6), ("[1,]", 3), ("\"\\ud800\"", 7), ("{} x", 3), ("01", 0)] {
            do {
                _ = try JSONParser.parse(Array(text.utf8), file: "t")
                Issue.record("\(text) parsed")
            } catch {
                if case .damaged(_, let at, _) = error { #expect(at == offset, "\(text)") } else { Issue.record("\(error)") }
            }
        }
    }

    @Test func deepNestingIsRefusedNotOverflowed() {
        let text = String(repeating: "[", count: 100_000)
        #expect(throws: FormatError.self) { try JSONParser.parse(Array(text.utf8), file: "t") }
    }

    @Test func inspectDocumentRoundTrips() throws {
        let session = ChromeProtoCodecTests.sampleSession()
        let document = InspectDocument.document([session], history: true)
        let decoded = try InspectDocument.decode(JSONParser.parse(document, file: "t"), file: "t")
        #expect(decoded == [session])
    }

    /// The document streamed a part at a time (tabs written in parallel batches) reads exactly as
    /// JSONValue prints it: parsing it and printing it again gives the same bytes.
    @Test(arguments: [0, 1, 3, 12])
    func inspectDocumentIsLaidOutAsJSONValuePrintsIt(sessions count: Int) throws {
        var sessions: [Session] = []
        for index in 0..<count {
            var session = ChromeProtoCodecTests.sampleSession()
            session.id = "S\(index)"
            if index % 2 == 1 { session.tabs = [] }
            if index == 2 {
                // More tabs than two parallel batches (of at most 512), so that the document comes in several parts.
                session.tabs = (0..<1_031).map { number in
                    var tab = session.tabs[number % session.tabs.count]
                    tab.id = Int32(number + 1)
                    return tab
                }
            }
            sessions.append(session)
        }
        for history in [false, true] {
            var parts: [[UInt8]] = []
            InspectDocument.write(sessions, history: history) { parts.append($0) }
            let whole = parts.flatMap { $0 }
            #expect(try JSONParser.parse(whole, file: "t").serializedBytes() == whole)
            #expect(whole == InspectDocument.document(sessions, history: history))
            if count == 12 { #expect(parts.count > 2) }
        }
    }

    /// JSONWriter writes any value as JSONValue prints it, at any level of nesting.
    @Test func writerMatchesTheTreePrinter() {
        let values: [JSONValue] = [
            .null, .bool(true), .int(-7), .string("a\"b"), .array([]), .object([]),
            .array([.array([]), .object([]), .array([.int(1), .array([.null])])]),
            .object([("a", .object([])), ("b", .array([.object([("c", .array([]))])])), ("d", .string("é")), ("e\"\n", .int(0))])
        ]
        func replay(_ value: JSONValue, _ writer: inout JSONWriter) {
            switch value {
            case .null: writer.null()
            case .bool(let flag): writer.bool(flag)
            case .int(let number): writer.int(number)
            case .double: Issue.record("no doubles here")
            case .verbatim: Issue.record("no verbatim values here")
            case .string(let text): writer.string(text)
            case .array(let elements):
                writer.beginArray()
                for element in elements { replay(element, &writer) }
                writer.endArray()
            case .object(let members):
                writer.beginObject()
                for (key, member) in members {
                    writer.key(escaping: key)
                    replay(member, &writer)
                }
                writer.endObject()
            }
        }
        for value in values {
            for level in [0, 2] {
                var writer = JSONWriter(level: level)
                replay(value, &writer)
                #expect(writer.bytes == value.serializedBytes(prettyAtLevel: level), "\(value) at \(level)")
            }
        }
    }

    @Test func importErrorsNameTheJSONPath() {
        let text = #"{"schema": "sessionctl.inspect/1", "sessions": [{"id": "S", "tabs": [{"id": 4294967296}]}]}"#
        do {
            _ = try InspectDocument.decode(JSONParser.parse(Array(text.utf8), file: "doc.json"), file: "doc.json")
            Issue.record("decoded")
        } catch {
            #expect(error.description.contains("sessions[0].tabs[0].id"))
        }
    }

    /// A session's format is one a registered family reads, each named as the family names it.
    @Test func aFormatIsOneAFamilyReads() throws {
        for format in ["optimized", "legacy", "window-data", "tabs-archive", "sessionstore", "snss", "browser-state"] {
            let text = #"{"schema": "sessionctl.inspect/1", "sessions": [{"id": "S", "format": "\#(format)", "tabs": []}]}"#
            let sessions = try InspectDocument.decode(JSONParser.parse(Array(text.utf8), file: "doc.json"), file: "doc.json")
            #expect(sessions.map(\.format.rawValue) == [format])
        }
        #expect(BrowserFamilies.formats.count == 7 && Set(BrowserFamilies.formats).count == 7)
        let text = #"{"schema": "sessionctl.inspect/1", "sessions": [{"id": "S", "format": "netscape", "tabs": []}]}"#
        #expect(throws: FormatError.self) {
            _ = try InspectDocument.decode(JSONParser.parse(Array(text.utf8), file: "doc.json"), file: "doc.json")
        }
    }

    @Test func redactionKeepsSchemeAndHost() {
        #expect(Redactor.redact(url: "https://user:pw@www.example.com:8443/a/b?q=1#f") == "https://www.example.com:8443/REDACTED")
        #expect(Redactor.redact(url: "https://example.com/") == "https://example.com/")
        #expect(Redactor.redact(url: "about:blank") == "about:REDACTED")
        #expect(Redactor.redact(title: "Secret") == "REDACTED")
    }
}

@Suite struct JSONEscapingTests {
    init() { Browsers.install() }

    /// Strings are scanned eight bytes at a time: a character that needs escaping is found at any
    /// position, in any string length, next to multi-byte characters that do not.
    @Test func escapesAreFoundAtEveryPosition() throws {
        let specials = ["\"", "\\", "\n", "\u{01}", "\u{1f}", "\u{2028}", "\u{2029}"]
        let plain = ["a", "é", "€", "\u{7f}", "😀"]
        for length in 0...19 {
            for position in 0...length {
                for special in specials {
                    var characters = (0..<length).map { plain[$0 % plain.count] }
                    characters.insert(special, at: position)
                    let text = characters.joined()
                    let printed = JSONValue.string(text).serialized()
                    #expect(try JSONParser.parse(Array(printed.utf8), file: "t") == .string(text))
                    #expect(!printed.utf8.contains { $0 < 0x20 } && !printed.contains("\u{2028}") && !printed.contains("\u{2029}"))
                }
            }
        }
    }

    /// Random strings, rich in the bytes the eight-at-a-time scan looks for, print as JSON that
    /// parses back to the same string.
    @Test func randomStringsRoundTrip() throws {
        var generator = SplitMix64(seed: 2026_1122)
        let alphabet: [Character] = [
            "a", "Z", "\"", "\\", "\n", "\t", "\u{0}", "\u{1b}", "\u{7f}", "é", "€", "…",
            "\u{2028}", "\u{2029}", "\u{2027}", "😀", "/", " "
        ]
        for _ in 0..<3_000 {
            let length = Int.random(in: 0...40, using: &generator)
            let text = String((0..<length).map { _ in alphabet.randomElement(using: &generator) ?? "a" })
            let printed = JSONValue.string(text).serializedBytes()
            #expect(try JSONParser.parse(printed, file: "t") == .string(text), "\(text.debugDescription)")
        }
    }

    @Test func controlCharactersAndLineSeparatorsAreEscaped() throws {
        let text = "a\"b\\c\n\u{01}\u{1f}\u{2028}\u{2029}é😀…€\u{2027}\u{7f}"
        let printed = JSONValue.string(text).serialized()
        #expect(printed == #""a\"b\\c\n\u0001\u001f\u2028\u2029é😀…€\#u{2027}\#u{7f}""#)
        #expect(try JSONParser.parse(Array(printed.utf8), file: "t") == .string(text))
    }
}
