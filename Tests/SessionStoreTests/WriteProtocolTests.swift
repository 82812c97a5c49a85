import FileSystemKit
import SessionFormats
import SessionModel
import TestSupport
import Testing

@testable import SessionStore

/// The save protocol as seen through the file system: every file by temp, fsync, rename and
/// directory fsync; data.pb before the commit point; removals after it.
@Suite struct WriteProtocolTests {
    init() { Browsers.install() }

    /// Checks that every final file was written as: create temp beside it, writes, fsync, close,
    /// rename over it, fsync of its directory; and that no final name was ever created or opened.
    static func expectAtomicWrites(_ calls: [RecordingFileSystem.Call]) -> [String] {
        var finals: [String] = []
        for (index, call) in calls.enumerated() {
            guard case .rename(let temp, let final) = call else { continue }
            finals.append(final)
            #expect(parentPath(temp) == parentPath(final), "temp file in the same directory")
            #expect(AtomicWriter.isTemporaryName(lastPathComponent(temp)))
            let history = calls[..<index].filter { call in
                switch call {
                case .create(let path), .write(let path, _), .fsync(let path), .close(let path): return path == temp
                default: return false
                }
            }
            #expect(history.first == .create(temp))
            #expect(history.suffix(2) == [.fsync(temp), .close(temp)], "fsync then close before the rename: \(history)")
            #expect(
                calls.indices.contains(index + 1) && calls[index + 1] == .fsyncDirectory(parentPath(final)),
                "the directory is fsynced right after the rename of \(final)")
        }
        for call in calls {
            if case .create(let path) = call {
                #expect(AtomicWriter.isTemporaryName(lastPathComponent(path)), "created a final name: \(path)")
            }
        }
        return finals
    }

    @Test func aSaveWritesEveryFileAtomicallyInChromesOrder() throws {
        let harness = try StoreHarness()
        let window = harness.window
        for name in ["a", "b", "c"] { window.openTab(url: "https://\(name).example/") }
        harness.fileSystem.reset()
        harness.service.saveNow()
        let finals = Self.expectAtomicWrites(harness.writes).map(lastPathComponent)
        #expect(finals == ["data.pb", "data.pb", "data.pb", "session_metadata.pb"])
        // New directories are made durable through their parents before anything is written in them.
        let session = harness.directory.at("Default/SessionStorage/{SyntheticIdentifier}")
        let mkdir = try #require(harness.writes.firstIndex(of: .mkdir(session)))
        #expect(harness.writes[mkdir + 1] == .fsyncDirectory(parentPath(session)))
    }

    @Test func closedTabsAreRemovedDurablyAfterTheCommit() throws {
        let harness = try StoreHarness()
        let window = harness.window
        for name in ["a", "b", "c"] { window.openTab(url: "https://\(name).example/") }
        harness.service.saveNow()
        let closed = window.tabs.tabs[0]
        closed.interactionState = [1, 2, 3]
        closed.navigate(to: "https://a.example/2")
        harness.service.saveNow()
        #expect(harness.directory.exists("Default/SessionStorage/{SyntheticIdentifier}/\(Tab.directoryName(for: closed.id))/state.pb"))
        harness.fileSystem.reset()
        window.tabs.close(at: 0)
        harness.service.saveNow()
        let session = harness.directory.at("Default/SessionStorage/{SyntheticIdentifier}")
        let tabDirectory = joinPath(session, Tab.directoryName(for: closed.id))
        let calls = harness.writes
        _ = Self.expectAtomicWrites(calls)
        // The commit point replaces the list (its old content kept under the backup name until the
        // rename is durable); then the closed tab goes.
        let backup = joinPath(session, AtomicWriter.backupName(of: "session_metadata.pb"))
        #expect(calls.contains(.link(joinPath(session, "session_metadata.pb"), backup)))
        let tail = Array(calls.drop { $0 != .unlink(backup) }.dropFirst())
        #expect(
            tail == [
                .unlink(joinPath(tabDirectory, "data.pb")), .unlink(joinPath(tabDirectory, "state.pb")),
                .fsyncDirectory(tabDirectory), .rmdir(tabDirectory), .fsyncDirectory(session)
            ])
    }

    @Test func aNavigationRemovesAStaleInteractionState() throws {
        let harness = try StoreHarness()
        let tab = harness.window.openTab(url: "https://a.example/")
        tab.interactionState = [9, 9]
        harness.service.saveNow()
        let state = "Default/SessionStorage/{SyntheticIdentifier}/\(Tab.directoryName(for: tab.id))/state.pb"
        #expect(harness.directory.bytes(state) == [9, 9])
        tab.interactionState = nil
        tab.navigate(to: "https://a.example/2")
        harness.service.saveNow()
        #expect(!harness.directory.exists(state))
    }
}
