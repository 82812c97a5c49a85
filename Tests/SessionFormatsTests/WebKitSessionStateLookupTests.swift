import Foundation
import TestSupport
import Testing

@testable import SessionFormats

/// WebKitSessionState.decode looks its five keys up in the parsed objects instead of building the
/// whole value tree: on every fixture and thousands of damaged copies of them it decodes exactly
/// what the value tree gives, and fails exactly where the tree fails.
@Suite struct WebKitSessionStateLookupTests {
    init() { Browsers.install() }

    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The decoding through the whole value tree, as the reader did before it looked keys up.
    static func decodeByTree(_ bytes: [UInt8]) -> WebKitSessionState? {
        guard bytes.count >= 4, bytes[0..<4].reduce(UInt32(0), { $0 << 8 | UInt32($1) }) == WebKitSessionState.version,
            let root = try? BinaryPlistReader.read(Array(bytes[4...])).value(), case .dictionary(let top) = root
        else { return nil }
        guard case .dictionary(let history)? = top["SessionHistory"] else { return WebKitSessionState(entries: [], currentIndex: nil) }
        if let version = history["SessionHistoryVersion"], version != .integer(1) { return nil }
        guard let currentValue = history["SessionHistoryCurrentIndex"] else { return WebKitSessionState(entries: [], currentIndex: nil) }
        guard case .array(let values)? = history["SessionHistoryEntries"] else { return nil }
        var entries: [WebKitSessionState.Entry] = []
        for value in values {
            guard case .dictionary(let entry) = value, case .string(let url)? = entry["SessionHistoryEntryURL"],
                case .string(let title)? = entry["SessionHistoryEntryTitle"],
                case .string(let originalURL)? = entry["SessionHistoryEntryOriginalURL"]
            else { return nil }
            var frameState: [UInt8]?
            if case .data(let data)? = entry["SessionHistoryEntryData"] { frameState = data }
            entries.append(.init(url: url, title: title, originalURL: originalURL, frameState: frameState))
        }
        guard case .integer(let current) = currentValue, current >= 0, current < Int64(entries.count) else { return nil }
        return WebKitSessionState(entries: entries, currentIndex: Int(current))
    }

    static func fixtures() throws -> [[UInt8]] {
        let directories = ["Fixtures/webkit", "Fixtures/firefox-ios/profile/profile.profile/tab-session-data"]
        return try directories.flatMap { directory in
            let url = repository.appendingPathComponent(directory)
            return try FileManager.default.contentsOfDirectory(atPath: url.path).filter { !$0.hasPrefix("make") }.map {
                Array(try Data(contentsOf: url.appendingPathComponent($0)))
            }
        }
    }

    @Test func lookupsDecodeWhatTheValueTreeDecodes() throws {
        var seed: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next() -> UInt64 {
            seed ^= seed << 13
            seed ^= seed >> 7
            seed ^= seed << 17
            return seed
        }
        var compared = 0
        for original in try Self.fixtures() where original.count > 8 {
            for round in 0..<600 {
                var bytes = original
                // One to three bytes changed (the first round unchanged), or the file cut.
                if round % 50 == 49 {
                    bytes = Array(bytes.prefix(Int(next() % UInt64(bytes.count))))
                } else if round > 0 {
                    for _ in 0..<(1 + Int(next() % 3)) { bytes[Int(next() % UInt64(bytes.count))] = UInt8(truncatingIfNeeded: next()) }
                }
                let byLookup = try? WebKitSessionState.decode(bytes, file: "f")
                #expect(byLookup == Self.decodeByTree(bytes), "round \(round) of a \(original.count)-byte state")
                compared += 1
            }
        }
        #expect(compared > 1000)
    }
}
