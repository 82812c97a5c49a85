import SessionStore
import TestSupport
import Testing

@testable import CrashSimulator

/// The in-memory tree: its hash depends only on what it holds, and the journal undoes exactly.
@Suite struct ModelTreeTests {
    init() { Browsers.install() }

    private func build(_ steps: [(ModelFileSystem) throws -> Void]) throws -> ModelTree {
        let tree = ModelTree()
        let system = ModelFileSystem(tree: tree)
        for step in steps { try step(system) }
        return tree
    }

    @Test func theHashDependsOnContentNotOnHistory() throws {
        let first = try build([
            { try $0.mkdir("/a", mode: 0o755) },
            { try $0.writeNew("/a/x", "one") },
            { try $0.writeNew("/a/y", "two") }
        ])
        let second = try build([
            { try $0.mkdir("/a", mode: 0o755) },
            { try $0.writeNew("/a/t", "two") },
            { try $0.writeNew("/a/x", "one") },
            { try $0.rename("/a/t", to: "/a/y") }
        ])
        #expect(first.hash == second.hash)
        let third = try build([
            { try $0.mkdir("/a", mode: 0o755) },
            { try $0.writeNew("/a/x", "one") },
            { try $0.writeNew("/a/y", "tw0") }
        ])
        #expect(first.hash != third.hash, "one byte differs")
    }

    @Test func rollbackRestoresTheTreeAndItsHash() throws {
        let tree = try build([{ try $0.mkdir("/a", mode: 0o755) }, { try $0.writeNew("/a/x", "one") }])
        let before = tree.hash
        let system = ModelFileSystem(tree: tree)
        tree.isJournaling = true
        let mark = tree.mark()
        try system.unlink("/a/x")
        try system.writeNew("/a/z", "three")
        try system.mkdir("/a/b", mode: 0o755)
        #expect(tree.hash != before)
        tree.rollback(to: mark)
        #expect(tree.hash == before)
        #expect(try ModelFileSystem(tree: tree).read("/a/x") == Array("one".utf8))
        #expect(ModelFileSystem(tree: tree).kind(of: "/a/z") == nil)
        #expect(ModelFileSystem(tree: tree).kind(of: "/a/b") == nil)
    }

    @Test func aContentChangeReachesEveryHardLink() throws {
        let tree = try build([{ try $0.mkdir("/a", mode: 0o755) }, { try $0.writeNew("/a/x", "one") }, { try $0.link("/a/x", to: "/a/y") }])
        let system = ModelFileSystem(tree: tree)
        let inode = try #require(system.resolve("/a/x"))
        let before = tree.hash
        tree.setContent(inode, Blob(Array("two".utf8)), dataOperation: 9, exact: false)
        #expect(try system.read("/a/y") == Array("two".utf8))
        tree.setContent(inode, Blob(Array("one".utf8)), dataOperation: 9, exact: false)
        #expect(tree.hash == before)
    }

    /// What no path reaches is not in the hash: a tree cut off by its one entry leaves the hash
    /// and linkage it would leave emptied entry by entry, a change below it changes neither, and
    /// putting the entry back brings everything back.
    @Test func whatIsOutOfReachIsNotInTheHash() throws {
        let steps: [(ModelFileSystem) throws -> Void] = [
            { try $0.mkdir("/a", mode: 0o755) }, { try $0.writeNew("/a/x", "one") },
            { try $0.mkdir("/a/b", mode: 0o755) }, { try $0.writeNew("/a/b/y", "two") }, { try $0.link("/a/x", to: "/a/b/z") }
        ]
        let tree = try build(steps)
        let emptied = try build(steps + [{ try $0.unlink("/a/b/y") }, { try $0.unlink("/a/b/z") }, { try $0.rmdir("/a/b") }])
        let system = ModelFileSystem(tree: tree)
        let inode = try #require(system.resolve("/a/x"))
        let (before, linkageBefore) = (tree.hash, tree.linkage)
        tree.isJournaling = true
        let mark = tree.mark()
        let a = try #require(system.resolve("/a"))
        let b = try #require(system.resolve("/a/b"))
        tree.setEntry(a, tree.names.intern("b"), nil)
        #expect(tree.hash == emptied.hash && tree.linkage == emptied.linkage)
        let cutOff = tree.hash
        tree.setEntry(b, tree.names.intern("w"), inode)
        #expect(tree.hash == cutOff, "an entry made out of reach")
        tree.setContent(inode, Blob(Array("three".utf8)), dataOperation: 9, exact: false)
        let changed = try build(steps.prefix(1) + [{ try $0.writeNew("/a/x", "three") }])
        #expect(tree.hash == changed.hash, "a hard link out of reach does not count the new content")
        tree.rollback(to: mark)
        #expect(tree.hash == before && tree.linkage == linkageBefore)
    }

    @Test func contentHashesAreDeterministicAndSpread() {
        #expect(ContentHash.of(Array("session_metadata.pb".utf8)) == ContentHash.of("session_metadata.pb"))
        var seen = Set<UInt64>()
        for length in 0..<200 { seen.insert(ContentHash.of([UInt8](repeating: 0, count: length))) }
        #expect(seen.count == 200, "zero runs of different lengths differ")
        #expect(SeededGenerator.garbage(count: 13, seed: 7) == SeededGenerator.garbage(count: 13, seed: 7))
        #expect(SeededGenerator.garbage(count: 13, seed: 7) != SeededGenerator.garbage(count: 13, seed: 8))
    }
}
