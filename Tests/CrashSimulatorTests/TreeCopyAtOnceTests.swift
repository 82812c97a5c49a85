import FileSystemKit
import SessionStore
import TestSupport
import Testing

@testable import CrashSimulator

/// A tree copied with hard links at once (a recovery run whose steps are not explored) ends where
/// the step-by-step calls end, with their shape, and its recorded operation makes it again.
@Suite struct TreeCopyAtOnceTests {
    init() { Browsers.install() }

    private static let leftOut = [AtomicWriter.temporaryPrefix, AtomicWriter.backupPrefix]

    /// A session-like tree: a metadata file, tab directories (one with a subdirectory), a
    /// temporary file and a backup name to leave out, and a file outside the tree linked into it.
    private func populated() throws -> ModelFileSystem {
        let system = ModelFileSystem(tree: ModelTree())
        for directory in ["/p", "/p/keep", "/p/s", "/p/s/t2", "/p/s/t1", "/p/s/t1/deep", "/p/s/empty", "/p/b"] {
            try system.mkdir(directory, mode: 0o755)
        }
        for file in [
            "/p/keep/f", "/p/s/m", "/p/s/t1/data.pb", "/p/s/t2/data.pb", "/p/s/t1/deep/x",
            "/p/s/\(AtomicWriter.temporaryPrefix)m.9", "/p/s/t2/\(AtomicWriter.backupPrefix)data.pb"
        ] {
            try system.writeNew(file, file)
        }
        try system.link("/p/keep/f", to: "/p/s/t1/shared")
        system.clearOperations()
        return system
    }

    private func collapsing(_ system: ModelFileSystem) -> ModelFileSystem {
        system.collapsesTrees = true
        system.shapesOfLinking = { source, inode, destination, syncing in
            RecoverySignature.linkTerms(system.tree, source: source, inode: inode, destination: destination, syncing: syncing)
        }
        return system
    }

    @Test(arguments: [false, true])
    func aTreeCopiedAtOnceEndsWhereTheStepsEnd(syncing: Bool) throws {
        let steps = try populated()
        let expected = try steps.linkTree("/p/s", to: "/p/b/copy", mode: 0o700, syncingEachDirectory: syncing, leavingOut: Self.leftOut)
        let atOnce = collapsing(try populated())
        let linked = try atOnce.linkTree("/p/s", to: "/p/b/copy", mode: 0o700, syncingEachDirectory: syncing, leavingOut: Self.leftOut)

        #expect(expected == ["m", "t1/data.pb", "t1/deep/x", "t1/shared", "t2/data.pb"])
        #expect(linked == expected)
        #expect(atOnce.tree.hash == steps.tree.hash && atOnce.tree.linkage == steps.tree.linkage, "the same inodes, names and contents")
        #expect(
            atOnce.tree.contentHash(of: ModelTree.root, leavingOutTransient: false)
                == steps.tree.contentHash(of: ModelTree.root, leavingOutTransient: false))
        #expect(atOnce.nextFreeInode == steps.nextFreeInode)
        #expect(atOnce.operations.map(\.kind) == [.mkdir])
        #expect(steps.operations.count == (syncing ? 15 : 10), "5 mkdirs and 5 links, and an fsync of each directory")
        #expect(atOnce.treesCollapsed == 1 && atOnce.collapsedSteps == steps.operations.count - 1)
        #expect(atOnce.collapsedTerms.count == Set(atOnce.collapsedTerms).count, "each term once")
        #expect(
            RecoverySignature.of(atOnce.operations, collapsed: atOnce.collapsedTerms)
                == RecoverySignature.of(steps.operations, collapsed: []), "the copy has the shape of its steps")
        #expect(try atOnce.read("/p/b/copy/t1/shared") == Array("/p/keep/f".utf8))
        #expect(atOnce.kind(of: "/p/b/copy/\(AtomicWriter.temporaryPrefix)m.9") == nil)
        #expect(atOnce.kind(of: "/p/b/copy/empty") == .directory)
    }

    /// The recorded operation makes the whole copy again on the tree it was made from, as a
    /// remembered second stage is applied (`ModelFileSystem.replay`), and a rollback undoes it.
    @Test func theRecordedCopyIsMadeAgainFromItsEffect() throws {
        let atOnce = collapsing(try populated())
        let before = atOnce.tree.snapshot()
        _ = try atOnce.linkTree("/p/s", to: "/p/b/copy", mode: 0o700, syncingEachDirectory: true, leavingOut: Self.leftOut)

        let again = ModelTree(snapshot: before, names: atOnce.tree.names)
        again.isJournaling = true
        let mark = again.mark()
        for (index, operation) in atOnce.operations.enumerated() { again.apply(operation.effect, index: Int32(index)) }
        #expect(again.hash == atOnce.tree.hash && again.linkage == atOnce.tree.linkage)
        again.rollback(to: mark)
        #expect(again.hash == before.hash)
    }

    /// Where a step would fail, or the names left out are not the store's, the calls are made one
    /// by one and answer as POSIX does.
    @Test func otherwiseTheCopyIsMadeCallByCall() throws {
        let atOnce = collapsing(try populated())
        #expect(throws: FileSystemError.exists(path: "/p/b")) {
            _ = try atOnce.linkTree("/p/s", to: "/p/b", mode: 0o700, syncingEachDirectory: false, leavingOut: Self.leftOut)
        }
        #expect(throws: FileSystemError.self) {
            _ = try atOnce.linkTree("/p/missing", to: "/p/b/copy", mode: 0o700, syncingEachDirectory: false, leavingOut: Self.leftOut)
        }
        #expect(atOnce.kind(of: "/p/b/copy") == .directory, "the mkdir made before the listing failed, as call by call")
        let other = collapsing(try populated())
        let linked = try other.linkTree("/p/s", to: "/p/b/copy", mode: 0o700, syncingEachDirectory: false, leavingOut: [])
        #expect(linked.count == 7 && other.treesCollapsed == 0)
        #expect(other.operations.filter { $0.kind == .link }.count == 7)
    }
}
