import Archive
import Foundation
import TestSupport
import Testing

@testable import FirefoxDesktop
@testable import SessionFormats

/// The one-pass reading of a whole session document reads what the tree-built reading reads, and
/// gives up on everything the parser does not take as a whole document.
@Suite struct SessionstoreScannerTests {
    init() { Browsers.install() }

    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// Every JSON document of the Firefox desktop fixtures, decompressed.
    static func fixtures() throws -> [[UInt8]] {
        var documents: [[UInt8]] = []
        let root = repository.appendingPathComponent("Fixtures/firefox-desktop")
        let files = FileManager.default.enumerator(atPath: root.path)?.compactMap { $0 as? String } ?? []
        for path in files.sorted() where path.hasSuffix("lz4") || path.hasSuffix(".json") || path.contains("lz4-") {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: root.appendingPathComponent(path).path, isDirectory: &isDirectory),
                !isDirectory.boolValue
            else { continue }
            let bytes = [UInt8](try Data(contentsOf: root.appendingPathComponent(path)))
            let file = SessionstoreFile.decode(bytes, file: path, compressed: nil)
            if file.container == .plain {
                documents.append(bytes)
            } else if let json = try? MozLz4.decode(bytes, file: path, limit: 1 << 26).bytes {
                documents.append(json)
            }
        }
        return documents
    }

    @Test func itReadsWhatTheTreeBuiltReadingReadsAndGivesUpOnWhatThatSalvages() throws {
        var documents = try Self.fixtures()
        #expect(documents.count > 10)
        documents += [
            Array(
                #"{"windows":[{"tabs":[{"entries":[{"url":"a","title":"\u00e9\ud83d\ude00"}],"index":1.0,"pinned":true}],"selected":"2"}]}"#
                    .utf8),
            Array(#"{"windows":[{"tabs":[{"entries":[{"url":"a","url":"b"}]},{"entries":7},3]},[],{"tabs":{}}],"windows":[]}"#.utf8),
            Array(
                #"{"windows":[{"_closedTabs":[{"state":{"entries":[{"url":"c"}]},"state":{}},{"x":1},4]}],"version":["sessionrestore","1e0"]}"#
                    .utf8),
            Array(
                #"{"windows":[{"groups":[{"id":"g","name":"n","color":"gray","collapsed":true},{"id":1}],"tabs":[{"groupId":"g","entries":[{"url":"d","children":[{},{}]}]}]}]}"#
                    .utf8),
            Array(#"  {"session":{"state":"stopped","lastUpdate":1e3,"recentCrashes":-2}, "selectedWindow": 12345678901234567890}  "#.utf8),
            Array(#"{"a":"\ud800"}"#.utf8), Array(#"{"a":"\x"}"#.utf8), Array(#"{"a":01}"#.utf8), Array(#"{"a":1.}"#.utf8),
            Array(#"{"a":[1,]}"#.utf8), Array(#"{"a":1} x"#.utf8), Array(#"[1]"#.utf8), Array(#"{"\u0061":1}"#.utf8), [],
            Array("{\"a\":\"\u{7}\"}".utf8), [0x7B, 0x22, 0x61, 0x22, 0x3A, 0x22, 0xC0, 0x80, 0x22, 0x7D],
            Array(String(repeating: "[", count: 195).utf8) + Array(String(repeating: "]", count: 195).utf8),
            Array(("{\"a\":" + String(repeating: "[", count: 189) + String(repeating: "]", count: 189) + "}").utf8)
        ]
        // Damaged copies: every fixture cut at a few places and with a byte changed.
        var generator = SystemRandomNumberGenerator()
        for document in try Self.fixtures() where document.count > 10 {
            for _ in 0..<40 {
                var copy = document
                let at = Int.random(in: 0..<copy.count, using: &generator)
                if Bool.random(using: &generator) {
                    copy.removeLast(copy.count - at)
                } else {
                    copy[at] = UInt8.random(in: 0...255, using: &generator)
                }
                documents.append(copy)
            }
        }
        var scanned = 0
        for document in documents {
            let slow = SessionstoreDecoder.decodeSalvaging(document)
            guard let fast = SessionstoreScanner.decode(document) else { continue }
            scanned += 1
            #expect(
                slow.damage == nil && slow.cutTabs == 0,
                "the scanner took a document the parser refuses: \(String(decoding: document.prefix(200), as: UTF8.self))")
            #expect(slow.document == fast, "\(String(decoding: document.prefix(200), as: UTF8.self))")
            // What a rewrite writes of each part is the same too.
            if let slowDocument = slow.document {
                #expect(slowDocument.raw == fast.raw)
                #expect(
                    zip(slowDocument.windows, fast.windows).allSatisfy {
                        $0.raw == $1.raw && zip($0.tabs, $1.tabs).allSatisfy { $0.raw == $1.raw }
                    })
            }
        }
        #expect(scanned > 20)
    }
}
