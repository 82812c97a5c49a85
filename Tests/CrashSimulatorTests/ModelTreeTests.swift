@testable import CrashSimulator
import SessionStore
import Testing

/// The in-memory tree: its hash depends only on what it holds, and the journal undoes exactly.
@Suite struct ModelTreeTests {
    private func build(_ steps: [(ModelFileSystem) throws -> Void]) throws -> ModelTree {
        let tree = ModelTree()
        let system = ModelFileSystem(tree: tree)
        for step in steps { try step(system) }
        return tree
    }

    private func write(_ system: ModelFileSystem, _ path: String, _ text: String) throws {
        let handle = try system.createExclusive(path, mode: 0o644)
        _ = try system.write(handle, Array(text.utf8)[...])
        try system.close(handle)
    }

    @Test func theHashDependsOnContentNotOnHistory() throws {
        let first = try build([
            { try $0.mkdir("/a", mode: 0o755) },
            { try self.write($0, "/a/x", "one") },
            { try self.write($0, "/a/y", "two") },
        ])
        let second = try build([
            { try $0.mkdir("/a", mode: 0o755) },
            { try self.write($0, "/a/t", "two") },
            { try self.write($0, "/a/x", "one") },
            { try $0.rename("/a/t", to: "/a/y") },
        ])
        #expect(first.hash == second.hash)
        let third = try build([
            { try $0.mkdir("/a", mode: 0o755) },
            { try self.write($0, "/a/x", "one") },
            { try self.write($0, "/a/y", "tw0") },
        ])
        #expect(first.hash != third.hash, "one byte differs")
    }

    @Test func rollbackRestoresTheTreeAndItsHash() throws {
        let tree = try build([{ try $0.mkdir("/a", mode: 0o755) }, { try self.write($0, "/a/x", "one") }])
        let before = tree.hash
        let system = ModelFileSystem(tree: tree)
        tree.isJournaling = true
        let mark = tree.mark()
        try system.unlink("/a/x")
        try write(system, "/a/z", "three")
        try system.mkdir("/a/b", mode: 0o755)
        #expect(tree.hash != before)
        tree.rollback(to: mark)
        #expect(tree.hash == before)
        #expect(try ModelFileSystem(tree: tree).read("/a/x") == Array("one".utf8))
        #expect(ModelFileSystem(tree: tree).kind(of: "/a/z") == nil)
        #expect(ModelFileSystem(tree: tree).kind(of: "/a/b") == nil)
    }

    @Test func aContentChangeReachesEveryHardLink() throws {
        let tree = try build([{ try $0.mkdir("/a", mode: 0o755) }, { try self.write($0, "/a/x", "one") }, { try $0.link("/a/x", to: "/a/y") }])
        let system = ModelFileSystem(tree: tree)
        let inode = try #require(system.resolve("/a/x"))
        let before = tree.hash
        tree.setContent(inode, Blob(Array("two".utf8)), dataOperation: 9, exact: false)
        #expect(try system.read("/a/y") == Array("two".utf8))
        tree.setContent(inode, Blob(Array("one".utf8)), dataOperation: 9, exact: false)
        #expect(tree.hash == before)
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
