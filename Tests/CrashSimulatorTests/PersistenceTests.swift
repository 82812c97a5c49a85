import SessionStore
import TestSupport
import Testing

@testable import CrashSimulator

/// What each persistence model makes certain, and the crash states generated from it.
@Suite struct PersistenceTests {
    init() { Browsers.install() }

    /// The operations of one safe write of a new file, then of its replacement.
    private func operations() throws -> [FileOperation] {
        let system = ModelFileSystem(tree: ModelTree())
        try system.mkdir("/p", mode: 0o755)
        system.clearOperations()
        try AtomicWriter(fileSystem: system).write(Array(repeating: 1, count: 5000), to: "/p/f")
        return system.operations
    }

    @Test func underProcessEveryOperationIsCertainAtOnce() throws {
        var pending = PendingOperations(model: .process)
        for (index, operation) in try operations().enumerated() {
            #expect(pending.issue(index, operation.effect) == [index])
        }
        #expect(pending.isEmpty)
    }

    @Test func underPessimisticOnlyBarriersMakeOperationsCertain() throws {
        let operations = try operations()
        #expect(operations.map(\.kind) == [.create, .write, .fsync, .rename, .fsyncDirectory])
        var pending = PendingOperations(model: .pessimistic)
        #expect(pending.issue(0, operations[0].effect).isEmpty)
        #expect(pending.issue(1, operations[1].effect).isEmpty)
        #expect(pending.indices == [0, 1])
        #expect(pending.issue(2, operations[2].effect) == [1], "fsync of the file: its data, not its directory entry")
        #expect(pending.issue(3, operations[3].effect).isEmpty)
        #expect(pending.issue(4, operations[4].effect) == [0, 3], "fsync of the directory: the create and the rename")
        #expect(pending.isEmpty)
    }

    @Test func processCutsWritesInProgress() {
        #expect(CrashStateGenerator.cutPoints(1).isEmpty)
        #expect(CrashStateGenerator.cutPoints(5) == [1, 2, 3, 4])
        #expect(CrashStateGenerator.cutPoints(1100) == [1, 366, 512, 733, 1024, 1099])
    }

    @Test func smallPendingSetsAreExploredExhaustively() throws {
        let operations = try operations()
        let generator = CrashStateGenerator(model: .pessimistic, seed: 1)
        let states = generator.states(at: 3, operations: operations, pending: [0, 1], fresh: [0, 1], checkpoint: true)
        let selections = Set(states.filter { $0.tear == nil }.map(\.selection))
        #expect(selections == [.all, .none, .only([0]), .only([1])])
        #expect(states.contains { $0.tear == .pieces(operation: 1, pieces: 2, aligned: true, kept: 1, garbage: false, grown: true) })
        #expect(states.contains { $0.tear == .sector(operation: 1, sector: 0, length: 256) })
        #expect(generator.states(at: 3, operations: operations, pending: [0, 1], fresh: [0, 1], checkpoint: false).count == 1)
    }

    @Test func largePendingSetsAreSampledFromTheSeed() throws {
        let operations = try operations()
        let pending = Array(0..<20)
        let many = [FileOperation](repeating: operations[0], count: 20)
        let first = CrashStateGenerator(model: .pessimistic, seed: 5).states(
            at: 20, operations: many, pending: pending, fresh: [19], checkpoint: true)
        let again = CrashStateGenerator(model: .pessimistic, seed: 5).states(
            at: 20, operations: many, pending: pending, fresh: [19], checkpoint: true)
        let other = CrashStateGenerator(model: .pessimistic, seed: 6).states(
            at: 20, operations: many, pending: pending, fresh: [19], checkpoint: true)
        #expect(first == again)
        #expect(first != other)
        #expect(first.count <= 3 + 48 && first.count > 40)
        #expect(first.contains(CrashState(crashPoint: 20, selection: .allBut([19]))))
    }

    @Test func renamesTearIntoTheirThreeSteps() throws {
        let operations = try operations()
        let tears = CrashStateGenerator(model: .pessimistic, seed: 1).tears(of: 3, effect: operations[3].effect)
        #expect(tears == (1...6).map { Tear.renameSteps(operation: 3, steps: $0) })
    }
}
