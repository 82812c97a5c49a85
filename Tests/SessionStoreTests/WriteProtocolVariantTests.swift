import SessionFormats
import SessionModel
import TestSupport
import Testing

@_spi(CrashTesting) @testable import SessionStore

/// The deliberately flawed write protocols a crash checker swaps in, each flawed in exactly its own way.
@Suite struct WriteProtocolVariantTests {
    init() { Browsers.install() }

    /// The calls of one save that opens a tab and closes another, under a protocol.
    private func callsOfASave(_ writeProtocol: WriteProtocol) throws -> (calls: [RecordingFileSystem.Call], harness: StoreHarness) {
        let harness = try StoreHarness(options: .init(writeProtocol: writeProtocol))
        for name in ["a", "b"] { harness.window.openTab(url: "https://\(name).example/") }
        harness.service.saveNow()
        harness.fileSystem.reset()
        harness.window.tabs.close(at: 0)
        harness.window.openTab(url: "https://c.example/")
        harness.service.saveNow()
        #expect(harness.urlsOnDisk() == ["https://b.example/", "https://c.example/"], "without a crash every protocol saves")
        return (harness.writes, harness)
    }

    private func index(_ calls: [RecordingFileSystem.Call], _ match: (RecordingFileSystem.Call) -> Bool) -> Int? {
        calls.firstIndex(where: match)
    }

    private func isMetadataRename(_ call: RecordingFileSystem.Call) -> Bool {
        if case .rename(_, let to) = call { return to.hasSuffix("session_metadata.pb") }
        return false
    }

    private func isUnlink(_ call: RecordingFileSystem.Call) -> Bool {
        if case .unlink = call { return true }
        return false
    }

    private func isFsync(_ call: RecordingFileSystem.Call) -> Bool {
        if case .fsync = call { return true }
        return false
    }

    private func isDirectoryFsync(_ call: RecordingFileSystem.Call) -> Bool {
        if case .fsyncDirectory = call { return true }
        return false
    }

    @Test func safeSyncsEverythingAndRemovesAfterTheCommit() throws {
        let (calls, _) = try callsOfASave(.safe)
        #expect(calls.contains(where: isFsync) && calls.contains(where: isDirectoryFsync))
        #expect(try #require(index(calls, isMetadataRename)) < #require(index(calls, isUnlink)))
    }

    @Test func noFsyncSyncsNothing() throws {
        let (calls, _) = try callsOfASave(.noFsync)
        #expect(!calls.contains(where: isFsync) && !calls.contains(where: isDirectoryFsync))
        #expect(calls.contains(where: isMetadataRename))
    }

    @Test func foundationAtomicSyncsFilesButNoDirectory() throws {
        let (calls, _) = try callsOfASave(.foundationAtomic)
        #expect(calls.contains(where: isFsync))
        #expect(!calls.contains(where: isDirectoryFsync))
        #expect(try #require(index(calls, isMetadataRename)) < #require(index(calls, isUnlink)))
    }

    @Test func chromeRemovesClosedTabsBeforeTheCommit() throws {
        let (calls, _) = try callsOfASave(.chrome)
        #expect(!calls.contains(where: isDirectoryFsync))
        #expect(try #require(index(calls, isUnlink)) < #require(index(calls, isMetadataRename)))
    }

    @Test func inPlaceTruncatesTheLiveFile() throws {
        let (calls, harness) = try callsOfASave(.inPlace)
        let metadata = harness.directory.at("Default/SessionStorage/{SyntheticIdentifier}/session_metadata.pb")
        #expect(calls.contains(.openTruncating(metadata)))
        #expect(!calls.contains(where: isMetadataRename))
    }
}
