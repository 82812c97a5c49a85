@_spi(CrashTesting) import FileSystemKit
import SessionFormats
@_spi(CrashTesting) import SessionStore
import TestSupport
import Testing

@_spi(CrashTesting) @testable import CrashSimulator

/// The recording file system keeps POSIX semantics and records every logical operation.
@Suite struct ModelFileSystemTests {
    init() { Browsers.install() }

    private func make() throws -> ModelFileSystem {
        let system = ModelFileSystem(tree: ModelTree())
        try system.mkdir("/p", mode: 0o755)
        return system
    }

    @Test func posixSemantics() throws {
        let system = try make()
        let handle = try system.createExclusive("/p/a", mode: 0o644)
        #expect(try system.write(handle, [1, 2, 3][...]) == 3)
        try system.close(handle)
        #expect(throws: FileSystemError.exists(path: "/p/a")) { _ = try system.createExclusive("/p/a", mode: 0o644) }
        #expect(throws: FileSystemError.exists(path: "/p/b")) {
            try system.link("/p/a", to: "/p/b")
            try system.link("/p/a", to: "/p/b")
        }
        try system.mkdir("/p/d", mode: 0o755)
        try system.link("/p/a", to: "/p/d/c")
        #expect(throws: FileSystemError.self) { try system.rmdir("/p/d") }
        #expect(throws: FileSystemError.self) { try system.unlink("/p/d") }
        #expect(throws: FileSystemError.self) { try system.rename("/p/a", to: "/p/d") }
        try system.rename("/p/b", to: "/p/a")
        #expect(try system.list("/p") == ["a", "b", "d"], "renaming a hard link onto its own file does nothing")
        #expect(try system.read("/p/d/c") == [1, 2, 3])
        #expect(throws: FileSystemError.self) { _ = try system.read("/p/missing") }
        #expect(system.kind(of: "/p/d") == .directory)
        #expect(system.kind(of: "/p/d/c") == .file)
        #expect(throws: FileSystemError.cannotCreate(path: "/q/x", reason: "No such file or directory")) {
            _ = try system.createExclusive("/q/x", mode: 0o644)
        }
    }

    /// A digest is what reading and hashing give, and is refused as a read is.
    @Test func aDigestIsTheHashOfWhatAReadGives() throws {
        let system = try make()
        try system.writeNew("/p/a", [1, 2, 3])
        try system.mkdir("/p/d", mode: 0o755)
        #expect(try system.digest(of: "/p/a") == FileDigest(of: [1, 2, 3]))
        #expect(try FileDigester(system).digest(of: "/p/a") == FileDigest(of: [1, 2, 3]))
        for path in ["/p/d", "/p/missing"] {
            var readError: FileSystemError?
            var digestError: FileSystemError?
            do { _ = try system.read(path) } catch { readError = error }
            do { _ = try system.digest(of: path) } catch { digestError = error }
            #expect(readError != nil && digestError == readError)
        }
    }

    /// A listing with kinds says what `list` and `kind(of:)` say: a directory that becomes a file
    /// under the same name is listed as a file.
    @Test func entriesAreTheListingWithEachKind() throws {
        let system = try make()
        try system.mkdir("/p/d", mode: 0o755)
        let handle = try system.createExclusive("/p/a", mode: 0o644)
        try system.close(handle)
        let entries = try system.entries(of: "/p")
        #expect(entries == [DirectoryEntry(name: "a", kind: .file), DirectoryEntry(name: "d", kind: .directory)])
        #expect(entries.map(\.name) == (try system.list("/p")))
        try system.rmdir("/p/d")
        let file = try system.createExclusive("/p/d", mode: 0o644)
        try system.close(file)
        #expect(try system.entries(of: "/p") == [DirectoryEntry(name: "a", kind: .file), DirectoryEntry(name: "d", kind: .file)])
    }

    /// The leftovers hint lists exactly the directories that directly hold a temporary or backup
    /// name, at any depth, and nothing below such a name; the sweep skips a session without one
    /// and still removes one that a tab holds.
    @Test func theLeftoversHintListsTheDirectoriesHoldingTemporaryNames() throws {
        let system = try make()
        let storage = joinPath("/p", ProfileLayout.optimizedDirectory)
        let session = joinPath(storage, "S1")
        let tab = joinPath(session, "t")
        for directory in [storage, session, tab, joinPath(session, "u")] { try system.mkdir(directory, mode: 0o755) }
        try system.close(try system.createExclusive(joinPath(tab, "data.pb"), mode: 0o644))
        let sweeper = TemporaryFileSweeper(writer: AtomicWriter(fileSystem: system), profile: "/p")
        #expect(system.directories(below: session, holdingNamesStartingWith: TemporaryFileSweeper.leftoverNames) == [])
        #expect(try sweeper.sweep().isEmpty)
        let temporary = joinPath(tab, AtomicWriter.temporaryPrefix + "data.pb.1.1")
        try system.close(try system.createExclusive(temporary, mode: 0o644))
        try system.mkdir(joinPath(session, AtomicWriter.temporaryPrefix + "gone"), mode: 0o755)
        try system.close(
            try system.createExclusive(
                joinPath(session, AtomicWriter.temporaryPrefix + "gone", AtomicWriter.temporaryPrefix + "x"), mode: 0o644))
        #expect(system.directories(below: session, holdingNamesStartingWith: TemporaryFileSweeper.leftoverNames) == [session, tab])
        #expect(system.directories(below: "/p", holdingNamesStartingWith: TemporaryFileSweeper.leftoverNames) == [session, tab])
        #expect(system.directories(below: joinPath(session, "u"), holdingNamesStartingWith: TemporaryFileSweeper.leftoverNames) == [])
        #expect(system.directories(below: "/p/missing", holdingNamesStartingWith: TemporaryFileSweeper.leftoverNames) == nil)
        let removed = try sweeper.sweep()
        #expect(removed.count == 2 && removed.allSatisfy { $0.hasPrefix(joinPath(ProfileLayout.optimizedDirectory, "S1")) })
        #expect(system.directories(below: session, holdingNamesStartingWith: TemporaryFileSweeper.leftoverNames) == [])
    }

    /// Asked about names it does not track (sessionctl's own, an intent record, a staged repair),
    /// the hint answers what a walk of every directory finds, never less: a sweep that removed
    /// those names would find them on the model as on a disk.
    @Test func theHintAnswersForAnyNamesAsAWalkDoes() throws {
        let system = try make()
        let storage = joinPath("/p", ProfileLayout.optimizedDirectory)
        let session = joinPath(storage, "S1")
        for directory in [storage, session, joinPath(session, "t"), joinPath(storage, ".sessionctl-repair.S2")] {
            try system.mkdir(directory, mode: 0o755)
        }
        try system.close(try system.createExclusive("/p/.sessionctl-intent.json", mode: 0o644))
        try system.close(try system.createExclusive(joinPath(session, "t", AtomicWriter.temporaryPrefix + "x.1"), mode: 0o644))
        let broad = NamePrefixes([".sessionctl-"])
        #expect(system.directories(below: "/p", holdingNamesStartingWith: broad) == ["/p", storage, joinPath(session, "t")])
        #expect(system.directories(below: "/p", holdingNamesStartingWith: TemporaryFileSweeper.leftoverNames) == [joinPath(session, "t")])
        #expect(system.directories(below: "/p", holdingNamesStartingWith: NamePrefixes(["data"])) == [])
        // Every set of names: the answer of a plain walk of the listings.
        for names in [broad, TemporaryFileSweeper.leftoverNames, NamePrefixes([".sessionctl-intent"]), NamePrefixes(["t", "S"])] {
            #expect(system.directories(below: "/p", holdingNamesStartingWith: names) == walk(system, "/p", names), "\(names.prefixes)")
        }
    }

    /// The plain path: the directories at or below `path` holding a name of `names`, from listings.
    private func walk(_ system: ModelFileSystem, _ path: String, _ names: NamePrefixes) -> [String] {
        var found: [String] = []
        let entries = (try? system.entries(of: path)) ?? []
        if entries.contains(where: { names.matches($0.name) }) { found.append(path) }
        for entry in entries where entry.kind == .directory && !names.matches(entry.name) {
            found += walk(system, joinPath(path, entry.name), names)
        }
        return sortedByBytes(found)
    }

    /// A sweep that removes every name of sessionctl's removes the intent record on the model as
    /// it does on a disk, though the model tracks only the writer's names.
    @Test func aBroadSweepRemovesTheSameOnTheModelAsOnADisk() throws {
        let directory = try TemporaryDirectoryForTests()
        defer { directory.remove() }
        let profile = joinPath(directory.path, "p")
        let disk = POSIXFileSystem()
        for path in [profile, joinPath(profile, ProfileLayout.optimizedDirectory)] { try disk.mkdir(path, mode: 0o755) }
        try AtomicWriter(fileSystem: disk).write(Array("{}".utf8), to: joinPath(profile, ".sessionctl-intent.json"))
        let model = ModelFileSystem(tree: DiskLoader.load(profile).tree)
        let onModel = try TemporaryFileSweeper(
            writer: AtomicWriter(fileSystem: model, writeProtocol: .broadSweep), profile: WorkloadRecorder.profile
        )
        .sweep()
        let onDisk = try TemporaryFileSweeper(writer: AtomicWriter(fileSystem: disk, writeProtocol: .broadSweep), profile: profile).sweep()
        #expect(onDisk == [".sessionctl-intent.json"])
        #expect(onModel == onDisk)
    }

    /// The sweep led by the model's hint for the whole profile removes and restores what the
    /// sweep of a file system without hints does, on the same profile, in the same order: where
    /// the session stores hold leftovers themselves, where only their sessions, tabs and entries
    /// do (two of them named alike as Unicode text, not as bytes), and where nothing does.
    @Test func theSweepLedByTheHintDoesWhatTheFullSweepDoes() throws {
        let temporary = AtomicWriter.temporaryPrefix
        let backup = AtomicWriter.backupPrefix
        let storesHoldThem = (
            [
                "SessionStorage", "SessionStorage/S1", "SessionStorage/S1/t1", "SessionStorage/S2", "SessionStorage/S2/t2",
                "SessionStorage/S2/t2/deeper", "SessionStorage/S3", "SessionStorage/\(temporary)gone", "Backups", "Backups/S1",
                "Backups/S1/\(temporary)20260101", "Backups/S2", "Backups/S2/20260101", "Backups/\(temporary)odd", "OTR",
                "OTR/SessionStorage", "OTR/SessionStorage/S4", "OTR/Backups", "OTR/Backups/S4", "Sessions"
            ],
            [
                "\(temporary)marker.1.2", "SessionStorage/S1/session_metadata.pb", "SessionStorage/S1/\(temporary)session_metadata.pb.3.4",
                "SessionStorage/S1/t1/data.pb", "SessionStorage/S1/t1/\(temporary)data.pb.5.6", "SessionStorage/S2/t2/deeper/\(temporary)x",
                "SessionStorage/S3/\(backup)session_metadata.pb", "SessionStorage/\(temporary)gone/f", "Backups/S1/\(temporary)20260101/f",
                "Backups/S2/20260101/manifest.json", "Backups/S2/20260101/\(temporary)m", "Backups/\(temporary)odd/\(temporary)y",
                "OTR/SessionStorage/S4/\(temporary)z", "OTR/Backups/S4/\(temporary)w", "Sessions/\(backup)s"
            ]
        )
        let sessionsHoldThem = (
            [
                "SessionStorage", "SessionStorage/A", "SessionStorage/A/t1", "SessionStorage/A/t2", "SessionStorage/A/t3",
                "SessionStorage/B", "SessionStorage/B/t1", "SessionStorage/B/t1/deeper", "SessionStorage/S\u{E9}",
                "SessionStorage/Se\u{301}",
                "SessionStorage/Se\u{301}/t", "Backups", "Backups/A", "Backups/A/20260101", "Backups/A/20260102"
            ],
            [
                "SessionStorage/A/t1/\(temporary)data.pb.1.1", "SessionStorage/A/t3/\(temporary)data.pb.1.2", "SessionStorage/A/t3/data.pb",
                "SessionStorage/A/\(backup)session_metadata.pb", "SessionStorage/B/t1/deeper/\(temporary)x",
                "SessionStorage/S\u{E9}/\(temporary)a", "SessionStorage/Se\u{301}/t/\(temporary)b", "Backups/A/20260102/\(temporary)m",
                "Backups/A/20260101/manifest.json"
            ]
        )
        let noneHold = (
            ["SessionStorage", "SessionStorage/A", "SessionStorage/A/t1", "Backups", "Backups/A"],
            ["SessionStorage/A/session_metadata.pb", "SessionStorage/A/t1/data.pb"]
        )
        func populate(
            _ fileSystem: any FileSystem, _ profile: String, _ layout: (directories: [String], files: [String])
        ) throws -> [String] {
            for directory in layout.directories { try fileSystem.mkdir(joinPath(profile, directory), mode: 0o755) }
            for file in layout.files { try AtomicWriter(fileSystem: fileSystem).write(Array(file.utf8), to: joinPath(profile, file)) }
            return try TemporaryFileSweeper(writer: AtomicWriter(fileSystem: fileSystem), profile: profile).sweep()
        }
        func everything(_ fileSystem: any FileSystem, _ directory: String) throws -> [String] {
            try fileSystem.entries(of: directory).flatMap { entry in
                let path = joinPath(directory, entry.name)
                return [path] + (entry.kind == .directory ? try everything(fileSystem, path) : [])
            }
        }
        for (layout, removals) in [(storesHoldThem, 11), (sessionsHoldThem, 6), (noneHold, 0)] {
            let model = try make()
            let fromModel = try populate(model, "/p", layout)
            let directory = try TemporaryDirectoryForTests()
            defer { directory.remove() }
            let real = POSIXFileSystem()
            let fromDisk = try populate(real, directory.path, layout)
            #expect(fromModel == fromDisk && fromModel.count == removals, "\(fromModel.count): \(fromModel) vs \(fromDisk)")
            let left = try everything(model, "/p").map { String(decoding: Array($0.utf8.dropFirst(3)), as: UTF8.self) }
            #expect(
                left
                    == (try everything(real, directory.path)).map {
                        String(decoding: Array($0.utf8.dropFirst(directory.path.utf8.count + 1)), as: UTF8.self)
                    })
        }
    }

    /// A tree removed at once (a run whose steps are not explored) ends where the step-by-step
    /// calls end, as every hash sees it, in one recorded operation and one traced call; a removal
    /// that fsyncs each directory is still made call by call.
    @Test func aTreeRemovedAtOnceEndsWhereTheStepsEnd() throws {
        func populated() throws -> ModelFileSystem {
            let system = try make()
            try system.mkdir("/p/keep", mode: 0o755)
            try system.close(try system.createExclusive("/p/keep/f", mode: 0o644))
            for directory in ["/p/gone", "/p/gone/t1", "/p/gone/t2", "/p/gone/t2/deep"] { try system.mkdir(directory, mode: 0o755) }
            for file in ["/p/gone/m", "/p/gone/t1/data.pb", "/p/gone/t2/deep/x"] { try system.writeNew(file, file) }
            try system.link("/p/keep/f", to: "/p/gone/t1/linked")
            system.clearOperations()
            return system
        }
        let steps = try populated()
        try steps.removeTree("/p/gone", kind: .directory, syncingEachDirectory: false)
        let atOnce = try populated()
        atOnce.collapsesTrees = true
        atOnce.shapesOfRemoval = { path, inode in RecoverySignature.removalTerms(atOnce.tree, path: path, inode: inode) }
        try atOnce.removeTree("/p/gone", kind: .directory, syncingEachDirectory: false)
        #expect(atOnce.treesCollapsed == 1 && atOnce.collapsedSteps == 7)
        #expect(
            RecoverySignature.of(atOnce.operations, collapsed: atOnce.collapsedTerms)
                == RecoverySignature.of(steps.operations, collapsed: []),
            "the removal has the shape of its steps")
        #expect(atOnce.tree.hash == steps.tree.hash && atOnce.tree.linkage == steps.tree.linkage)
        #expect(
            atOnce.tree.contentHash(of: ModelTree.root, leavingOutTransient: false)
                == steps.tree.contentHash(of: ModelTree.root, leavingOutTransient: false))
        #expect(steps.operations.count == 8 && atOnce.operations.map(\.kind) == [.rmdir])
        #expect(atOnce.kind(of: "/p/gone") == nil && atOnce.kind(of: "/p/keep/f") == .file)
        let synced = try populated()
        synced.collapsesTrees = true
        try synced.removeTree("/p/gone", kind: .directory, syncingEachDirectory: true)
        #expect(synced.operations.filter { $0.kind == .fsyncDirectory }.count == 4, "each directory fsynced, call by call")
        #expect(synced.tree.hash == steps.tree.hash)
    }

    @Test func everyOperationIsRecordedWithItsContext() throws {
        let system = try make()
        system.clearOperations()
        system.context = "line 3: wait"
        try AtomicWriter(fileSystem: system).write([7, 7], to: "/p/file")
        try AtomicWriter(fileSystem: system).write([8], to: "/p/file")
        let kinds = system.operations.map(\.kind)
        #expect(
            kinds == [
                .create, .write, .fsync, .rename, .fsyncDirectory,
                .create, .write, .fsync, .link, .fsyncDirectory, .rename, .fsyncDirectory, .unlink
            ])
        #expect(system.operations.allSatisfy { $0.context == "line 3: wait" })
        #expect(system.operations[1].size == 2)
        #expect(try system.read("/p/file") == [8])
    }

    @Test func temporaryNamesDependOnlyOnTheFileSystemsHistory() throws {
        let first = try make()
        let second = try make()
        for system in [first, second] {
            for _ in 0..<3 { try AtomicWriter(fileSystem: system).write([1], to: "/p/file") }
        }
        #expect(first.operations.map(\.summary) == second.operations.map(\.summary))
        #expect(first.operations.first { $0.kind == .create }?.path == "/p/.sessionctl-tmp.file.1")
        #expect(first.tree.hash == second.tree.hash)
    }

    /// A temporary name loses its last two parts when both are numbers (the store's process id and
    /// counter) and something comes before them, and takes the file system's own counter.
    @Test func temporaryNamesDropTheProcessIdAndCounter() throws {
        let system = try make()
        let prefix = AtomicWriter.temporaryPrefix
        for (given, canonical) in [
            ("a.12.34", "a.1"), ("1.2", "1.2.2"), ("a..5", "a..5.3"), (".1.2", ".4"), ("x.y.7", "x.y.7.5"),
            ("data.pb.7", "data.pb.7.6"), ("m.9.12.3", "m.9.7")
        ] {
            try system.close(try system.createExclusive("/p/\(prefix)\(given)", mode: 0o600))
            #expect(system.operations.last { $0.kind == .create }?.path == "/p/\(prefix)\(canonical)", "\(given)")
        }
    }

    @Test func openTruncatingIsRecordedAsATruncate() throws {
        let system = try make()
        try AtomicWriter(fileSystem: system).write([1, 2, 3], to: "/p/file")
        system.clearOperations()
        let handle = try system.openTruncating("/p/file", mode: 0o644)
        #expect(try system.read("/p/file") == [])
        _ = try system.write(handle, [9][...])
        #expect(system.operations.map(\.kind) == [.truncate, .write])
    }
}

/// The per-tree path index resolves paths and lists directories as a walk from the root would.
@Suite struct PathIndexTests {
    init() { Browsers.install() }

    @Test func resolutionFollowsEveryChangeOfTheTree() throws {
        let tree = ModelTree()
        let system = ModelFileSystem(tree: tree)
        try system.mkdir("/p", mode: 0o755)
        try system.mkdir("/p/d", mode: 0o755)
        let handle = try system.createExclusive("/p/d/f", mode: 0o644)
        try system.close(handle)
        #expect(system.kind(of: "/p/d/f") == .file)
        #expect(system.kind(of: "/p/./d//f/") == .file)
        try system.rename("/p/d", to: "/p/e")
        #expect(system.kind(of: "/p/d/f") == nil, "a path remembered before is resolved again after its directory moved")
        #expect(system.kind(of: "/p/e/f") == .file)
        #expect(throws: FileSystemError.self) { try system.unlink("/p/d/f") }
        try system.unlink("/p/e/f")
        try system.rmdir("/p/e")
        try system.mkdir("/p/d", mode: 0o755)
        #expect(system.kind(of: "/p/d") == .directory)
        #expect(system.kind(of: "/p/d/f") == nil)
        #expect(throws: FileSystemError.self) { try system.mkdir("/p/d/f/g", mode: 0o755) }
        #expect(system.kind(of: "/p/never/seen") == nil)
    }

    @Test func listingsAreSortedByBytesAndFollowChanges() throws {
        let system = ModelFileSystem(tree: ModelTree())
        try system.mkdir("/p", mode: 0o755)
        for name in ["b", "a", "B", "é", "a.b"] { try system.close(system.createExclusive("/p/\(name)", mode: 0o644)) }
        #expect(try system.list("/p") == ["B", "a", "a.b", "b", "é"])
        try system.unlink("/p/a")
        #expect(try system.list("/p") == ["B", "a.b", "b", "é"])
        try system.close(system.createExclusive("/p/a", mode: 0o644))
        #expect(try system.list("/p") == ["B", "a", "a.b", "b", "é"])
    }

    @Test func onlyTemporaryNamesAreTranslated() {
        #expect(ModelFileSystem.endsInTemporaryName("/p/d/\(AtomicWriter.temporaryPrefix)x.1.2"))
        #expect(!ModelFileSystem.endsInTemporaryName("/p/\(AtomicWriter.temporaryPrefix)x/y"))
        #expect(!ModelFileSystem.endsInTemporaryName("/p/d/x"))
        #expect(ModelFileSystem.endsInTemporaryName(AtomicWriter.temporaryPrefix + "x"))
    }
}
