import SessionFormats
import SessionModel
import SessionStore

/// Finishes or undoes what an interrupted repair left (see `RepairExecutor`): a staged session
/// directory beside a live one is removed (the write did not finish, the original is untouched);
/// a staged directory whose live place is empty is renamed into it (the write had finished and
/// the original is set aside).
struct RepairResumption {
    /// The prefix of a staged session directory's name.
    static let stagingPrefix = ".sessionctl-repair."

    let writer: AtomicWriter
    /// The profile directory.
    let profile: String

    /// Where the repair of `directory` (relative to the profile) is staged: beside it.
    static func stagingPath(of directory: String) -> String {
        let parent = parentPath(directory)
        let name = stagingPrefix + lastPathComponent(directory)
        return parent.isEmpty ? name : treePath(parent, name)
    }

    /// The staged directories of the profile, relative to it (read only).
    func staged() -> [String] {
        var found: [String] = []
        for incognito in [false, true] {
            let root = ProfileLayout.stateRoot(incognito: incognito)
            for storage in [ProfileLayout.optimizedDirectory, ProfileLayout.legacyDirectory] {
                let parent = treePath(root, storage)
                guard writer.fileSystem.kind(of: joinPath(profile, parent)) == .directory,
                      let names = try? writer.fileSystem.list(joinPath(profile, parent)) else { continue }
                found += names.filter { $0.hasPrefix(RepairResumption.stagingPrefix) }.map { treePath(parent, $0) }
            }
        }
        return found
    }

    /// True when an interrupted repair left something to settle: a staged directory, or a
    /// temporary file in a set-aside entry (a manifest being written).
    func hasWorkLeft() -> Bool {
        if !staged().isEmpty { return true }
        let system = writer.fileSystem
        func names(_ path: String) -> [String] { (try? system.list(joinPath(profile, path))) ?? [] }
        for incognito in [false, true] {
            let backups = treePath(ProfileLayout.stateRoot(incognito: incognito), ProfileLayout.backupsDirectory)
            for id in names(backups) {
                for stamp in names(treePath(backups, id)) where names(treePath(backups, id, stamp)).contains(where: AtomicWriter.isTemporaryName) {
                    return true
                }
            }
        }
        return false
    }

    /// Settles every staged directory of the profile; returns what was done, as steps.
    func settleAll() throws -> [RepairStep] {
        var steps: [RepairStep] = []
        for incognito in [false, true] {
            let root = ProfileLayout.stateRoot(incognito: incognito)
            for storage in [ProfileLayout.optimizedDirectory, ProfileLayout.legacyDirectory] {
                let parent = treePath(root, storage)
                guard writer.fileSystem.kind(of: joinPath(profile, parent)) == .directory else { continue }
                for name in try writer.fileSystem.list(joinPath(profile, parent)) where name.hasPrefix(RepairResumption.stagingPrefix) {
                    let directory = treePath(parent, String(name.dropFirst(RepairResumption.stagingPrefix.count)))
                    if let step = try settle(directory) { steps.append(step) }
                }
            }
        }
        for path in try TemporaryFileSweeper(writer: writer, profile: profile).sweep() {
            steps.append(.removedUnfinished(directory: path))
        }
        return steps
    }

    /// Settles the staged repair of `directory`, if there is one.
    func settle(_ directory: String) throws(StoreError) -> RepairStep? {
        let live = joinPath(profile, directory)
        let staged = RepairResumption.stagingPath(of: directory)
        let staging = joinPath(profile, staged)
        guard writer.fileSystem.kind(of: staging) == .directory else { return nil }
        if writer.fileSystem.kind(of: live) == nil {
            try writer.fileSystem.rename(staging, to: live)
            if writer.writeProtocol.syncsDirectories { try writer.fileSystem.fsyncDirectory(parentPath(live)) }
            return .finishedInterrupted(directory: directory)
        }
        try writer.removeTree(staging)
        return .removedUnfinished(directory: staged)
    }
}
