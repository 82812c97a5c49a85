import Archive
import FileSystemKit
import SessionFormats
import SessionStore
import TestSupport
import Testing

@testable import CrashSimulator

/// The manifest check read from the model's tree gives `TabCensus.manifestVerifies`'s verdict.
@Suite struct ModelManifestCheckTests {
    init() { Browsers.install() }

    /// One way to spoil an entry (or none).
    enum Spoil: String, CaseIterable, Sendable {
        case none, missingFile, extraFile, wrongSize, wrongDigest, noManifest, unparsable, fieldMissing, temporaryFile,
            nestedManifest, duplicateListing
    }

    private let files: [(path: String, bytes: [UInt8])] = [
        ("session_metadata.pb", [1, 2, 3]), ("t1/data.pb", [4, 5]), ("t2/data.pb", [6]), ("t2/deep/x", [])
    ]

    private func entry(_ spoil: Spoil) throws -> ModelFileSystem {
        let system = ModelFileSystem(tree: ModelTree())
        for directory in ["/e", "/e/t1", "/e/t2", "/e/t2/deep"] { try system.mkdir(directory, mode: 0o700) }
        for file in files { try system.writeNew(joinPath("/e", file.path), file.bytes) }
        var listed = files.map { file -> JSONValue in
            .object([
                ("path", .string(file.path)), ("size", .int(Int64(file.bytes.count))),
                ("sha256", .string(SHA256.hex(SHA256.hash(file.bytes))))
            ])
        }
        switch spoil {
        case .missingFile: try system.unlink("/e/t1/data.pb")
        case .extraFile: try system.writeNew("/e/t1/stray", [9])
        case .wrongSize:
            listed[1] = .object([("path", .string("t1/data.pb")), ("size", .int(3)), ("sha256", .string(SHA256.hex(SHA256.hash([4, 5]))))])
        case .wrongDigest:
            listed[2] = .object([("path", .string("t2/data.pb")), ("size", .int(1)), ("sha256", .string(SHA256.hex(SHA256.hash([7]))))])
        case .fieldMissing: listed[0] = .object([("path", .string("session_metadata.pb")), ("size", .int(3))])
        case .temporaryFile: try system.writeNew("/e/t2/\(AtomicWriter.temporaryPrefix)data.pb.1", [1])
        case .nestedManifest: try system.writeNew("/e/t1/manifest.json", [])
        case .duplicateListing: listed.append(listed[0])
        case .none, .noManifest, .unparsable: break
        }
        switch spoil {
        case .noManifest: break
        case .unparsable: try system.writeNew("/e/manifest.json", Array("{\"files\": [".utf8))
        default: try system.writeNew("/e/manifest.json", JSONValue.object([("files", .array(listed))]).serializedBytes())
        }
        return system
    }

    @Test(arguments: Spoil.allCases)
    func theTreesVerdictIsTheListingsVerdict(spoil: Spoil) throws {
        let system = try entry(spoil)
        let inode = try #require(system.resolve("/e"))
        let fromTree = ModelManifestCheck.verifies(system.tree, entry: inode) { SHA256.hex(SHA256.hash($0.bytes)) }
        let fromListing = TabCensus.manifestVerifies(system, entry: "/e")
        #expect(fromTree == fromListing)
        #expect(fromTree == (spoil == .none || spoil == .duplicateListing))
    }
}
