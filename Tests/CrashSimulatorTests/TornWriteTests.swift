@_spi(CrashTesting) import SessionStore
import TestSupport
import Testing

@_spi(CrashTesting) @testable import CrashSimulator

/// What a torn write leaves in a file.
@Suite struct TornWriteTests {
    init() { Browsers.install() }

    /// A tree where `/f` holds `old`, and the effect of writing `new` at `offset` into it.
    private func setUp(old: [UInt8], new: [UInt8], offset: Int) throws -> (ModelTree, Effect, ModelFileSystem) {
        let tree = ModelTree()
        let system = ModelFileSystem(tree: tree)
        let handle = try system.createExclusive("/f", mode: 0o644)
        if !old.isEmpty { _ = try system.write(handle, old[...]) }
        if offset > old.count { _ = try system.write(handle, [UInt8](repeating: 0, count: offset - old.count)[...]) }
        _ = try system.write(handle, new[...])
        let effect = system.operations.last!.effect
        // Undo the write in the tree: rebuild it with the old content only.
        let fresh = ModelTree()
        let freshSystem = ModelFileSystem(tree: fresh)
        let again = try freshSystem.createExclusive("/f", mode: 0o644)
        if !old.isEmpty { _ = try freshSystem.write(again, old[...]) }
        return (fresh, effect, freshSystem)
    }

    @Test func aCutKeepsThePrefix() throws {
        let (tree, effect, system) = try setUp(old: [], new: Array(1...10), offset: 0)
        TornWrite.apply(.cut(operation: 5, bytes: 4), effect: effect, index: 5, seed: 1, to: tree)
        #expect(try system.read("/f") == [1, 2, 3, 4])
    }

    @Test func aMissingMiddlePieceIsAHoleOfZeros() throws {
        let (tree, effect, system) = try setUp(old: [], new: Array(1...9), offset: 0)
        TornWrite.apply(
            .pieces(operation: 5, pieces: 3, aligned: false, kept: 0b101, garbage: false, grown: true), effect: effect, index: 5, seed: 1,
            to: tree)
        #expect(try system.read("/f") == [1, 2, 3, 0, 0, 0, 7, 8, 9])
    }

    @Test func withoutTheSizeGrownTheFileEndsAtTheLastPieceThatArrived() throws {
        let (tree, effect, system) = try setUp(old: [], new: Array(1...9), offset: 0)
        TornWrite.apply(
            .pieces(operation: 5, pieces: 3, aligned: false, kept: 0b001, garbage: false, grown: false), effect: effect, index: 5, seed: 1,
            to: tree)
        #expect(try system.read("/f") == [1, 2, 3])
        let (fresh, sameEffect, freshSystem) = try setUp(old: [], new: Array(1...9), offset: 0)
        TornWrite.apply(
            .pieces(operation: 5, pieces: 3, aligned: false, kept: 0, garbage: false, grown: true), effect: sameEffect, index: 5, seed: 1,
            to: fresh)
        #expect(try freshSystem.read("/f") == [UInt8](repeating: 0, count: 9), "the size arrived, the data did not")
    }

    @Test func garbageIsDeterministicAndOnlyWhereDataIsMissing() throws {
        let (tree, effect, system) = try setUp(old: [], new: Array(1...9), offset: 0)
        let tear = Tear.pieces(operation: 5, pieces: 3, aligned: false, kept: 0b101, garbage: true, grown: true)
        TornWrite.apply(tear, effect: effect, index: 5, seed: 42, to: tree)
        let first = try system.read("/f")
        #expect(Array(first[0..<3]) == [1, 2, 3] && Array(first[6..<9]) == [7, 8, 9])
        #expect(Array(first[3..<6]) != [4, 5, 6])
        TornWrite.apply(tear, effect: effect, index: 5, seed: 42, to: tree)
        #expect(try system.read("/f") == first)
    }

    @Test func blockPiecesFollowTheFilesBlockBoundaries() {
        let ranges = TornWrite.pieceRanges(length: 5000, offset: 4000, pieces: 0, aligned: true)
        #expect(ranges == [0..<96, 96..<4192, 4192..<5000])
        #expect(TornWrite.blockCount(length: 5000, offset: 4000) == 3)
    }

    @Test func aTornSectorKeepsEverythingElse() throws {
        let new = [UInt8](repeating: 7, count: 1024)
        let (tree, effect, system) = try setUp(old: [], new: new, offset: 0)
        TornWrite.apply(.sector(operation: 5, sector: 1, length: 256), effect: effect, index: 5, seed: 1, to: tree)
        let content = try system.read("/f")
        #expect(content.count == 1024)
        #expect(Array(content[0..<768]) == [UInt8](repeating: 7, count: 768))
        #expect(Array(content[768..<1024]) != [UInt8](repeating: 7, count: 256))
    }

    @Test func aRenameTornIntoItsFirstTwoStepsLeavesNeitherName() throws {
        let tree = ModelTree()
        let system = ModelFileSystem(tree: tree)
        try AtomicWriter(fileSystem: system, writeProtocol: .noFsync).write([1], to: "/f")
        let handle = try system.createExclusive("/t", mode: 0o644)
        _ = try system.write(handle, [2][...])
        try system.close(handle)
        let snapshot = tree.snapshot()
        try system.rename("/t", to: "/f")
        let effect = system.operations.last!.effect
        let torn = ModelTree(snapshot: snapshot, names: tree.names)
        TornWrite.apply(.renameSteps(operation: 9, steps: 0b011), effect: effect, index: 9, seed: 1, to: torn)
        #expect(ModelFileSystem(tree: torn).kind(of: "/f") == nil)
        #expect(ModelFileSystem(tree: torn).kind(of: "/t") == nil)
    }
}
