import Foundation
import Testing

/// `crash-test --store NAME --no-shortcuts`: every browser's store judges each state anew and
/// gives the document a run with its remembered verdicts gives, but for the time it took.
@Suite struct StoreShortcutsCommandTests {
    private func document(_ arguments: [String]) throws -> [String: Any] {
        let result = try CLI.run(["crash-test", "--workload", "small", "--format", "json"] + arguments)
        #expect(result.status == 1 || result.status == 0, "\(result.stderr)")
        var document = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        document.removeValue(forKey: "elapsedSeconds")
        document.removeValue(forKey: "statesPerSecond")
        return document
    }

    @Test(arguments: ["firefox-ios", "firefox-desktop", "chromium-desktop"])
    func withoutShortcutsEveryStoreGivesTheSameDocument(_ store: String) throws {
        let fast = try document(["--store", store])
        let plain = try document(["--store", store, "--no-shortcuts"])
        let text = { (document: [String: Any]) in
            String(decoding: try JSONSerialization.data(withJSONObject: document, options: [.sortedKeys]), as: UTF8.self)
        }
        #expect(try text(fast) == text(plain))
        let states = try #require(fast["states"] as? [String: Any])
        #expect((states["unique"] as? Int ?? 0) > 0 && (states["failed"] as? Int ?? 0) > 0)
    }
}
