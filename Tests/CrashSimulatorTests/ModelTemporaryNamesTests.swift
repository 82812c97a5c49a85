@_spi(CrashTesting) import FileSystemKit
import SessionStore
import TestSupport
import Testing

@_spi(CrashTesting) @testable import CrashSimulator

/// The model names the store's staged directories as it names its temporary files, by its own
/// history, and answers `AbandonedOutputs` with the only process it has: the run in progress.
@Suite struct ModelTemporaryNamesTests {
    init() { Browsers.install() }

    private func make(_ tree: ModelTree = ModelTree(), tag: String = "") throws -> ModelFileSystem {
        let system = ModelFileSystem(tree: tree, temporaryTag: tag)
        if system.kind(of: "/p") == nil { try system.mkdir("/p", mode: 0o755) }
        return system
    }

    @Test func aStagedDirectoryHasAFixedNameAndWhatIsBelowItFollows() throws {
        let system = try make()
        let staged = try StagedDirectory(path: "/p/out", fileSystem: system)
        #expect(staged.temporaryPath.hasPrefix("/p/.sessionctl-tmp.out."), "the store keeps the name it chose")
        #expect(try system.list("/p") == [".sessionctl-tmp.out.d1"])
        try staged.makeDirectory("root")
        let handle = try staged.createFile("root/f")
        try ([1, 2, 3] as [UInt8]).withUnsafeBytes { try staged.write(handle, $0, file: "root/f") }
        try staged.closeFile(handle)
        #expect(try system.list("/p/.sessionctl-tmp.out.d1/root") == ["f"])
        #expect(system.operations.allSatisfy { !$0.path.contains(staged.temporaryPath) }, "operations are recorded under the tree's names")
        try staged.commit(subtree: "root")
        #expect(try system.list("/p") == ["out"])
        #expect(try system.read("/p/out/f") == [1, 2, 3])
    }

    @Test func aDirectoryNamedOtherwiseKeepsItsName() throws {
        let system = try make()
        try system.mkdir("/p/" + AtomicWriter.temporaryPrefix + "20260101", mode: 0o755)
        #expect(try system.list("/p") == [AtomicWriter.temporaryPrefix + "20260101"])
    }

    @Test func everyTemporaryOfTheOutputThatTheRunDidNotMakeIsAbandoned() throws {
        let tree = ModelTree()
        let crashed = try make(tree)
        // What a crashed run left: a temporary file of the output, a staged directory of another
        // output, and a temporary of an output whose name only begins like this one's.
        let left = try AtomicWriter(fileSystem: crashed).begin("/p/out.tar.gz")
        let other = try StagedDirectory(path: "/p/out", fileSystem: crashed)
        let rerun = try make(tree, tag: "r")
        let own = try AtomicWriter(fileSystem: rerun).begin("/p/out.tar.gz.old")
        #expect(rerun.writerIsGone(temporary: own.temporaryPath, process: nil) == false)
        #expect(rerun.writerIsGone(temporary: "/p/.sessionctl-tmp.out.tar.gz.1", process: nil))
        let removed = AbandonedOutputs.remove(besides: "/p/out.tar.gz", fileSystem: rerun)
        #expect(removed == ["/p/.sessionctl-tmp.out.tar.gz.1"])
        #expect(try rerun.list("/p") == [".sessionctl-tmp.out.d2", ".sessionctl-tmp.out.tar.gz.old.r1"])
        #expect(AbandonedOutputs.remove(besides: "/p/out.tar.gz.old", fileSystem: rerun).isEmpty, "the run's own temporary stays")
        #expect(AbandonedOutputs.remove(besides: "/p/out", fileSystem: rerun) == ["/p/.sessionctl-tmp.out.d2"])
        withExtendedLifetime((left, other, own)) {}
    }
}
