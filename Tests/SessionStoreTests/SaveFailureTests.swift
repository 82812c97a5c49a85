import FileSystemKit
import SessionFormats
import SessionModel
import TestSupport
import Testing

@testable import SessionStore

/// A save that fails reports no acknowledgement, leaves the last saved state intact and no
/// temporary file behind, and is written again by the next save.
@Suite struct SaveFailureTests {
    init() { Browsers.install() }

    @Test(arguments: ["fsync", "rename", "fsyncdir"])
    func aFailedCommitKeepsTheOldSessionAndIsRetried(_ failing: String) throws {
        let harness = try StoreHarness()
        for name in ["a", "b"] { harness.window.openTab(url: "https://\(name).example/") }
        harness.service.saveNow()
        let metadata = "session_metadata.pb"
        harness.fileSystem.failWhen { call in
            let injected = FileSystemError.io(operation: failing, path: "injected", code: 5, reason: "injected")
            switch call {
            case .fsync(let path) where failing == "fsync" && path.contains(metadata): return injected
            case .rename(_, let to) where failing == "rename" && to.hasSuffix(metadata): return injected
            case .fsyncDirectory(let path) where failing == "fsyncdir" && path.hasSuffix("{SyntheticIdentifier}"): return injected
            default: return nil
            }
        }
        harness.window.openTab(url: "https://c.example/")
        harness.service.saveNow()
        #expect(harness.records.count == 1, "no acknowledgement for a failed save")
        #expect(harness.failures.map(\.sequence) == [2])
        #expect(harness.service.isSaveScheduled, "the changes are saved again later")
        #expect(!harness.directory.list("Default/SessionStorage/{SyntheticIdentifier}").contains { AtomicWriter.isTemporaryName($0) })
        if failing != "fsyncdir" {
            #expect(harness.urlsOnDisk() == ["https://a.example/", "https://b.example/"], "the old session is intact")
        }
        harness.fileSystem.failWhen(nil)
        harness.clock.advance(by: .milliseconds(2500))
        #expect(harness.records.count == 2)
        #expect(harness.records.last?.sequence == 3)
        #expect(harness.urlsOnDisk() == ["https://a.example/", "https://b.example/", "https://c.example/"])
        #expect(harness.loadFromDisk().isLossless)
    }

    @Test func shortWritesStillProduceWholeFiles() throws {
        let harness = try StoreHarness()
        harness.fileSystem.limitWrites(to: 3)
        let tab = harness.window.openTab(url: "https://a.example/a/long/path/that/needs/many/writes", title: "A title")
        harness.service.saveNow()
        #expect(harness.records.count == 1)
        let session = try #require(harness.loadFromDisk().session)
        #expect(session.tabs.map(\.id) == [tab.id])
        let data = harness.directory.bytes("Default/SessionStorage/{SyntheticIdentifier}/\(Tab.directoryName(for: tab.id))/data.pb")
        #expect(try ChromeProtoCodec.decodeTabData(data).items.first?.url == "https://a.example/a/long/path/that/needs/many/writes")
    }
}
