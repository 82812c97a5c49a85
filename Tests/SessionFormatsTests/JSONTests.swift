import SessionFormats
import SessionModel
import Testing

@Suite struct JSONTests {
    @Test func parsesAndPrintsInOrder() throws {
        let text = #"{"b": [1, -2, 3.5, true, null], "a": "\u00e9\ud83d\ude00\n"}"#
        let value = try JSONParser.parse(Array(text.utf8), file: "t")
        #expect(value["a"] == .string("é😀\n"))
        #expect(value.serialized(pretty: false) == #"{"b":[1,-2,3.5,true,null],"a":"é😀\n"}"#)
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
        let document = InspectDocument.encode([session], history: true)
        let decoded = try InspectDocument.decode(JSONParser.parse(Array(document.serialized().utf8), file: "t"), file: "t")
        #expect(decoded == [session])
    }

    /// The document written a session at a time is byte for byte the document serialized whole.
    @Test(arguments: [0, 1, 3, 12])
    func inspectDocumentWrittenInPartsIsTheWholeDocument(sessions count: Int) {
        var sessions: [Session] = []
        for index in 0..<count {
            var session = ChromeProtoCodecTests.sampleSession()
            session.id = "S\(index)"
            if index % 2 == 1 { session.tabs = [] }
            sessions.append(session)
        }
        for history in [false, true] {
            var parts: [UInt8] = []
            InspectDocument.write(sessions, history: history) { parts += $0 }
            #expect(parts == InspectDocument.encode(sessions, history: history).serializedBytes())
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

    @Test func redactionKeepsSchemeAndHost() {
        #expect(Redactor.redact(url: "https://user:pw@www.example.com:8443/a/b?q=1#f") == "https://www.example.com:8443/REDACTED")
        #expect(Redactor.redact(url: "https://example.com/") == "https://example.com/")
        #expect(Redactor.redact(url: "about:blank") == "about:REDACTED")
        #expect(Redactor.redact(title: "Secret") == "REDACTED")
    }
}

@Suite struct JSONEscapingTests {
    @Test func controlCharactersAndLineSeparatorsAreEscaped() throws {
        let text = "a\"b\\c\n\u{01}\u{1f}\u{2028}\u{2029}é😀"
        let printed = JSONValue.string(text).serialized()
        #expect(printed == #""a\"b\\c\n\u0001\u001f\u2028\u2029é😀""#)
        #expect(try JSONParser.parse(Array(printed.utf8), file: "t") == .string(text))
    }
}
