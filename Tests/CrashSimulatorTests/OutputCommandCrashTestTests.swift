import FileSystemKit
import Foundation
import SessionForensics
@_spi(CrashTesting) import SessionStore
import TestSupport
import Testing

@_spi(CrashTesting) @testable import CrashSimulator

/// `crash-test --command compress|decompress|report`: at every crash state the input is kept and
/// the output is absent or whole, and a re-run leaves it whole with nothing beside it; a flawed
/// write protocol for the output is caught by the oracle it breaks, and its reproducers replay.
@Suite(.exhaustive) struct OutputCommandCrashTestTests {
    init() { Browsers.install() }

    /// A bundle of a gallery profile made by compress on the real disk, in a directory of its own
    /// (removed by `remove`).
    private static func bundle(_ name: String = "healthy") throws -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("bundle-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let output = joinPath(directory, "\(name).tar.gz")
        _ = try BundleCompressor(tool: "test").compress(CommandCrashTestTests.gallery(name), to: output)
        return output
    }

    private static func remove(_ bundle: String) { try? FileManager.default.removeItem(atPath: parentPath(bundle)) }

    /// The input of `command`: the gallery profile, or for decompress a bundle of it.
    private static func input(_ command: ProfileCommand, _ profile: String = "healthy") throws -> String {
        command == .decompress ? try bundle(profile) : CommandCrashTestTests.gallery(profile)
    }

    private func run(
        _ command: ProfileCommand, _ input: String, model: PersistenceModel, writeProtocol: WriteProtocol = .safe
    ) throws -> CommandCrashTest.Report {
        var configuration = CommandCrashTest.Configuration(command: command, input: input)
        configuration.model = model
        configuration.writeProtocol = writeProtocol
        return try CommandCrashTest(configuration: configuration).run()
    }

    @Test(arguments: [ProfileCommand.compress, .decompress, .report], [PersistenceModel.process, .pessimistic])
    func everyCrashStateLeavesTheOutputAbsentOrWhole(_ command: ProfileCommand, model: PersistenceModel) throws {
        let input = try Self.input(command)
        defer { if command == .decompress { Self.remove(input) } }
        let report = try run(command, input, model: model)
        #expect(report.operations > 5)
        #expect(report.result.explored > report.operations)
        #expect(report.result.failed == 0, "\(report.result.failures.first.map { "\($0.message) [\(report.reproducer($0).text)]" } ?? "")")
        #expect(!report.result.truncated)
        let again = try run(command, input, model: model)
        #expect(again.operations == report.operations)
        #expect(again.result.explored == report.result.explored)
        #expect(again.result.unique == report.result.unique)
    }

    /// A protocol planted in the output's writer, the oracle that must catch it, and the model.
    struct Planted: Sendable, CustomStringConvertible {
        var command: ProfileCommand
        var writeProtocol: WriteProtocol
        var oracle: OracleKind
        var model: PersistenceModel
        var description: String { "\(command.rawValue) \(writeProtocol.rawValue) caught by \(oracle.rawValue) (\(model.rawValue))" }
    }

    static let planted = [
        // The output written in place: half of it is there after a crash, power or not.
        Planted(command: .compress, writeProtocol: .inPlace, oracle: .atomicity, model: .process),
        Planted(command: .report, writeProtocol: .inPlace, oracle: .atomicity, model: .process),
        // Linked or renamed into place without fsync: a power loss keeps the name, not the bytes.
        Planted(command: .compress, writeProtocol: .noFsync, oracle: .atomicity, model: .pessimistic),
        Planted(command: .report, writeProtocol: .noFsync, oracle: .atomicity, model: .pessimistic),
        Planted(command: .decompress, writeProtocol: .noFsync, oracle: .atomicity, model: .pessimistic),
        // The staged tree's directories never fsynced: the rename outlives their entries.
        Planted(command: .decompress, writeProtocol: .foundationAtomic, oracle: .atomicity, model: .pessimistic),
        // Temporaries named unlike the writer's: found by the names beside the output, not by asking.
        Planted(command: .compress, writeProtocol: .strangeTemporaryNames, oracle: .hygiene, model: .process)
    ]

    @Test(arguments: planted)
    func aFlawedOutputWriterIsCaughtAndReplays(_ planted: Planted) throws {
        let input = try Self.input(planted.command)
        defer { if planted.command == .decompress { Self.remove(input) } }
        let report = try run(planted.command, input, model: planted.model, writeProtocol: planted.writeProtocol)
        #expect(report.result.failuresByOracle[planted.oracle, default: 0] > 0, "\(report.result.failuresByOracle)")
        let failure = try #require(report.result.failures.first { $0.findings.contains { $0.oracle == planted.oracle } })
        let reproducer = report.reproducer(failure)
        #expect(reproducer.text.hasPrefix("command=\(planted.command.rawValue);input=\(input);model=\(planted.model.rawValue);"))
        let parsed = try Reproducer(text: reproducer.text)
        #expect(parsed == reproducer)
        let outcome = try Replayer().replay(parsed)
        if planted.writeProtocol == .strangeTemporaryNames {
            // Those names carry a counter of the process that the model does not translate.
            #expect(Set(outcome.findings.map(\.oracle)) == Set(failure.findings.map(\.oracle)))
        } else {
            #expect(Set(outcome.findings) == Set(failure.findings))
        }
    }

    @Test(arguments: [ProfileCommand.compress, .report, .decompress])
    func withoutFsyncOnlyPowerLossHurts(_ command: ProfileCommand) throws {
        // What the process model keeps (every completed call) never shows the output before its
        // bytes: the failures above come from the power-loss states alone.
        let input = try Self.input(command)
        defer { if command == .decompress { Self.remove(input) } }
        #expect(try run(command, input, model: .process, writeProtocol: .noFsync).result.failed == 0)
    }

    /// The tree after the uninterrupted run of compress, with the journal on.
    private func finished(_ run: CommandRun) -> (ModelTree, ModelFileSystem) {
        let tree = ModelTree(snapshot: run.recording.initial, names: run.recording.names)
        tree.isJournaling = true
        for (index, operation) in run.recording.operations.enumerated() { tree.apply(operation.effect, index: Int32(index)) }
        return (tree, ModelFileSystem(tree: tree, firstInode: run.recording.inodeCount + 20_000, temporaryTag: "t"))
    }

    @Test func aWholeOutputWithAKilledRunsTemporaryIsCleanedByTheRerun() throws {
        let run = try CommandRun.record(.compress, input: CommandCrashTestTests.gallery("healthy"), writeProtocol: .safe)
        let (tree, fileSystem) = finished(run)
        // A killed run's temporary beside the whole output: the re-run refuses to replace the
        // output, and removes the temporary.
        try fileSystem.close(try fileSystem.createExclusive("/" + AtomicWriter.temporaryPrefix + "profile.tar.gz.99.1", mode: 0o644))
        #expect(CommandJudge(run: run).judge(tree).isEmpty)
    }

    @Test func aHalfOutputAChangedInputAndAStrayNameAreEachFound() throws {
        let run = try CommandRun.record(.report, input: CommandCrashTestTests.gallery("healthy"), writeProtocol: .safe)
        let layout = try #require(run.output?.layout)
        let (tree, fileSystem) = finished(run)
        let bytes = try fileSystem.read(layout.output)
        try fileSystem.unlink(layout.output)
        let handle = try fileSystem.createExclusive(layout.output, mode: 0o644)
        _ = try fileSystem.write(handle, bytes[..<(bytes.count / 2)])
        try fileSystem.close(handle)
        try fileSystem.close(try fileSystem.createExclusive(joinPath(layout.input, "stray"), mode: 0o644))
        try fileSystem.close(try fileSystem.createExclusive("/profile.html.partial", mode: 0o644))
        let oracles = Set(CommandJudge(run: run).judge(tree).map(\.oracle))
        #expect(oracles == [.atomicity, .inputKept, .convergence, .hygiene])
    }
}
