import Archive
import TestSupport
import Testing

@testable import FirefoxDesktop
@testable import SessionFormats

/// A large session file keeps none of its JSON once read (`DeferredSessionstore`): every part a
/// rewrite asks for is the part the plain, whole reading gives, damaged files and the cache of
/// the last file decoded included.
@Suite(.exhaustive) struct SessionstoreDeferralTests {
    init() { Browsers.install() }

    /// A document over the kept limit: two windows (one closed), tabs with closed tabs, and a
    /// blob large enough in the last tab; cut at `cut` bytes when given.
    static func document(cut: Int? = nil) -> [UInt8] {
        let blob = String(repeating: "b", count: SessionstoreFile.keptJSONLimit + 1024)
        func tab(_ index: Int, _ extra: String = "") -> String {
            "{\"entries\":[{\"url\":\"https://example.com/\(index)\",\"title\":\"t\(index)\"}],\"index\":1,\"k\":\(index)\(extra)}"
        }
        let window =
            "{\"tabs\":[\(tab(1)),\(tab(2))],\"_closedTabs\":[{\"state\":\(tab(3))}],\"selected\":2,\"unknown\":[1,{\"a\":null}]}"
        let closed = "{\"tabs\":[\(tab(4))],\"selected\":1}"
        let last = "{\"tabs\":[\(tab(5)),\(tab(6, ",\"blob\":\"\(blob)\""))],\"selected\":1}"
        let text =
            "{\"version\":[\"sessionrestore\",1],\"windows\":[\(window),\(last)],\"_closedWindows\":[\(closed)],\"selectedWindow\":1,\"session\":{\"state\":\"running\"}}"
        let bytes = Array(text.utf8)
        return cut.map { Array(bytes.prefix($0)) } ?? bytes
    }

    /// Every part of both readings, in the same order.
    static func parts(_ document: SessionstoreDocument) -> [JSONValue] {
        var values = [document.raw]
        for window in document.windows + document.closedWindows {
            values.append(window.raw)
            values += window.tabs.map(\.raw) + window.closedTabs.map(\.raw)
        }
        return values
    }

    @Test(arguments: [false, true])
    func deferredPartsAreThePartsReadWhole(compressed: Bool) throws {
        let json = Self.document()
        let bytes = compressed ? try MozLz4.encode(json, file: "f") : json
        let deferred = try #require(SessionstoreFile.decode(bytes, file: "f", compressed: compressed).document)
        let whole = try #require(SessionstoreFile.decode(bytes, file: "f", compressed: compressed, deferringLarge: false).document)
        guard case .deferred = deferred.rawJSON else {
            Issue.record("a document of \(json.count) bytes kept its JSON")
            return
        }
        #expect(deferred.tabCount == whole.tabCount && deferred.closedWindows.count == 1)
        // Asked in an order that leaves the cache for another file in between.
        let other = try #require(SessionstoreFile.decode(bytes, file: "g", compressed: compressed).document)
        let deferredParts = Self.parts(deferred)
        _ = Self.parts(other)
        #expect(deferredParts == Self.parts(whole))
        #expect(Self.parts(deferred) == Self.parts(whole))
        #expect(SessionstoreMerge([deferred])?.json == SessionstoreMerge([whole])?.json)
    }

    /// A large file cut short: the salvaged parts are deferred as well, and read as salvaged.
    @Test func aDamagedLargeFileIsDeferredAsSalvaged() throws {
        let json = Self.document(cut: Self.document().count - 40)
        let deferred = try #require(SessionstoreFile.decode(json, file: "f", compressed: false).document)
        let whole = try #require(SessionstoreFile.decode(json, file: "f", compressed: false, deferringLarge: false).document)
        #expect(Self.parts(deferred) == Self.parts(whole))
        #expect(deferred.tabCount == whole.tabCount)
    }

    /// A small file keeps its JSON as before.
    @Test func aSmallFileIsKeptWhole() throws {
        let json = Array("{\"windows\":[{\"tabs\":[{\"entries\":[{\"url\":\"https://a/\"}]}]}]}".utf8)
        let document = try #require(SessionstoreFile.decode(json, file: "f", compressed: false).document)
        if case .deferred = document.rawJSON { Issue.record("a small document was deferred") }
    }
}
