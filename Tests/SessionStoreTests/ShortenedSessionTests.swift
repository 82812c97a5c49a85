import FileSystemKit
import Foundation
import TestSupport
import Testing

@testable import SessionFormats
@testable import SessionStore

/// A session Chrome's loading rules shorten (tabs dropped for no navigation items or a repeated
/// id, tabs listed without a data.pb) is restored as Chrome restores it, and kept as it was in
/// `Backups/` first, once: what the next save rewrites away stays readable.
@Suite struct ShortenedSessionTests {
    init() { Browsers.install() }

    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let id = "6A1E4C2B-9D0F-4B7A-8E3C-2F5D7B9A1C0E"
    static let live = "SessionStorage/\(id)"

    /// A temporary copy of a gallery profile.
    private func copy(_ gallery: String) throws -> TemporaryDirectory {
        let directory = try TemporaryDirectory()
        let profile = Self.repository.appendingPathComponent("Fixtures/gallery/\(gallery)").path
        for name in try FileManager.default.contentsOfDirectory(atPath: profile) {
            try FileManager.default.copyItem(atPath: "\(profile)/\(name)", toPath: directory.at(name))
        }
        return directory
    }

    @Test(arguments: ["tab-no-history", "tab-id-duplicate", "tab-data-missing", "tab-directory-missing"])
    func isKeptAsItWasOnceThenRestored(_ gallery: String) throws {
        let directory = try copy(gallery)
        defer { directory.remove() }
        let before = directory.bytes("\(Self.live)/session_metadata.pb")
        let service = try SessionService.launch(profile: directory.path, clock: VirtualClock())
        let entry = try #require(service.launchReport.setAside.first)
        #expect(entry.reason.contains("tab "), "the reason names the tab and Chrome's rule: \(entry.reason)")
        #expect(directory.bytes("\(entry.path)/session_metadata.pb") == before)
        #expect(directory.exists("\(entry.path)/manifest.json"))
        #expect(directory.bytes("\(Self.live)/session_metadata.pb") == before, "the live session stays where it was")
        #expect(service.launchReport.restored.contains { $0.key.id == Self.id && !$0.key.incognito })

        let again = try SessionService.launch(profile: directory.path, clock: VirtualClock())
        #expect(again.launchReport.setAside.isEmpty, "the same session is not kept twice")
        #expect(again.launchReport.completedManifests.isEmpty, "a kept copy is not taken for an interrupted set-aside")
        #expect(directory.list("Backups/\(Self.id)").count == 1)
        #expect(directory.exists("\(Self.live)/session_metadata.pb"))
    }

    @Test func aSessionRestoredAsStoredIsNotCopied() throws {
        let directory = try copy("healthy")
        defer { directory.remove() }
        let service = try SessionService.launch(profile: directory.path, clock: VirtualClock())
        #expect(service.launchReport.setAside.isEmpty)
        #expect(!directory.exists("Backups"))
    }

    @Test func theShorteningsNameChromesRules() {
        var outcome = ChromeLoadSemantics.load(metadata: nil, entries: [], id: Self.id, incognito: false)
        #expect(outcome.shortenings.isEmpty, "a session lost whole is set aside, not shortened")
        outcome.loss = nil
        outcome.droppedTabs = [.init(index: 1, id: 6, reason: .noNavigationItems), .init(index: 2, id: 5, reason: .duplicateID)]
        outcome.tabsWithoutData = [9]
        #expect(
            outcome.shortenings == [
                "tab 6: an item without navigation items is dropped before restoration",
                "tab 5: an item repeating an earlier item's id is dropped",
                "tab 9: listed without a data.pb, restored from its listed URL alone"
            ])
    }
}
