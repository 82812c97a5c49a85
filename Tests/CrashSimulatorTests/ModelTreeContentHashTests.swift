import SessionStore
import TestSupport
import Testing

@_spi(CrashTesting) @testable import CrashSimulator

/// The per-directory content hashes: names and bytes below a directory, never inode numbers,
/// kept up to date by every change and by rollback, with or without transient names.
@Suite struct ModelTreeContentHashTests {
    init() { Browsers.install() }

    private func hash(_ tree: ModelTree, _ path: String, leavingOutTransient: Bool = false) -> UInt64? {
        let system = ModelFileSystem(tree: tree)
        return system.resolve(path).flatMap { tree.contentHash(of: $0, leavingOutTransient: leavingOutTransient) }
    }

    /// A session-like directory `root` of two tab directories.
    private func session(_ system: ModelFileSystem, at root: String, tab: String = "b") throws {
        try system.mkdir(root, mode: 0o755)
        for name in ["a", tab] {
            try system.mkdir("\(root)/\(name)", mode: 0o755)
            try system.writeNew("\(root)/\(name)/data.pb", "tab \(name)")
        }
        try system.writeNew("\(root)/list", "a \(tab)")
    }

    @Test func twoCopiesHashAlikeWhateverTheirInodes() throws {
        let tree = ModelTree()
        let system = ModelFileSystem(tree: tree)
        try system.writeNew("/padding", "shifts the inode numbers of what follows")
        try session(system, at: "/live")
        try system.mkdir("/backup", mode: 0o755)
        try session(system, at: "/backup/copy")
        #expect(hash(tree, "/live") == hash(tree, "/backup/copy"))
        #expect(hash(tree, "/live/a") != hash(tree, "/live/b"), "same shape, other bytes")
        try session(system, at: "/other", tab: "c")
        #expect(hash(tree, "/live") != hash(tree, "/other"), "a name differs")
    }

    @Test func aChangeDeepDownReachesEveryDirectoryAbove() throws {
        let tree = ModelTree()
        let system = ModelFileSystem(tree: tree)
        try system.mkdir("/p", mode: 0o755)
        try session(system, at: "/p/live")
        let root = hash(tree, "/")
        let live = hash(tree, "/p/live")
        let tab = hash(tree, "/p/live/b")
        let handle = try system.openTruncating("/p/live/b/data.pb", mode: 0o644)
        _ = try system.write(handle, Array("T".utf8)[...])
        try system.close(handle)
        #expect(hash(tree, "/p/live/b") != tab)
        #expect(hash(tree, "/p/live") != live)
        #expect(hash(tree, "/") != root)
        #expect(hash(tree, "/p/live/a") != nil)
    }

    @Test func transientNamesCountOnlyInTheFullHash() throws {
        let tree = ModelTree()
        let system = ModelFileSystem(tree: tree)
        try session(system, at: "/live")
        let full = hash(tree, "/live")
        let lasting = hash(tree, "/live", leavingOutTransient: true)
        let temporary = "/live/b/\(AtomicWriter.temporaryPrefix)data.pb"
        try system.writeNew(temporary, "half a tab")
        #expect(hash(tree, "/live") != full)
        #expect(hash(tree, "/live", leavingOutTransient: true) == lasting)
        try system.unlink(temporary)
        #expect(hash(tree, "/live") == full)
    }

    @Test func rollbackAndRenamesKeepEveryHashTrue() throws {
        let tree = ModelTree()
        let system = ModelFileSystem(tree: tree)
        try session(system, at: "/live")
        try system.mkdir("/aside", mode: 0o755)
        let live = hash(tree, "/live")
        let root = hash(tree, "/")
        tree.isJournaling = true
        let mark = tree.mark()
        try system.rename("/live", to: "/aside/entry")
        #expect(hash(tree, "/aside/entry") == live, "a rename moves the content, unchanged")
        try system.writeNew("/aside/entry/manifest", "files")
        try system.unlink("/aside/entry/a/data.pb")
        tree.rollback(to: mark)
        #expect(hash(tree, "/live") == live)
        #expect(hash(tree, "/") == root)
        // Built afresh in another order, the same tree has the same hashes.
        let other = ModelTree()
        let otherSystem = ModelFileSystem(tree: other)
        try otherSystem.mkdir("/aside", mode: 0o755)
        try session(otherSystem, at: "/live")
        #expect(hash(other, "/") == root)
    }

    @Test func aFileLinkedTwiceInOneDirectoryCountsTwice() throws {
        let tree = ModelTree()
        let system = ModelFileSystem(tree: tree)
        try system.mkdir("/d", mode: 0o755)
        try system.writeNew("/d/x", "one")
        try system.link("/d/x", to: "/d/y")
        let handle = try system.openTruncating("/d/x", mode: 0o644)
        _ = try system.write(handle, Array("two".utf8)[...])
        try system.close(handle)
        let other = ModelTree()
        let otherSystem = ModelFileSystem(tree: other)
        try otherSystem.mkdir("/d", mode: 0o755)
        try otherSystem.writeNew("/d/x", "two")
        try otherSystem.writeNew("/d/y", "two")
        #expect(hash(tree, "/d") == hash(other, "/d"))
    }
}
