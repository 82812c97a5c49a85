import FileSystemKit
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
        return parent.isEmpty ? name : joinPath(parent, name)
    }

    /// The staged directories of the profile, relative to it (read only).
    func staged() -> [String] {
        var found: [String] = []
        for incognito in [false, true] {
            let root = ProfileLayout.stateRoot(incognito: incognito)
            for storage in [ProfileLayout.optimizedDirectory, ProfileLayout.legacyDirectory] {
                let parent = joinPath(root, storage)
                guard writer.fileSystem.kind(of: joinPath(profile, parent)) == .directory,
                      let names = try? writer.fileSystem.list(joinPath(profile, parent)) else { continue }
                found += names.filter { name in
                    name.hasPrefix(RepairResumption.stagingPrefix)
                        && writer.fileSystem.kind(of: joinPath(profile, parent, name)) == .directory
                }.map { joinPath(parent, $0) }
            }
        }
        return found
    }

    /// The prefix of a manifest being written into a set-aside entry.
    static let manifestInProgress = AtomicWriter.temporaryPrefix + "manifest.json."

    /// Manifests an interruption left half-written at the top of set-aside entries (relative paths).
    func unfinishedManifests() -> [String] {
        let system = writer.fileSystem
        func names(_ path: String) -> [String] { (try? system.list(joinPath(profile, path))) ?? [] }
        var found: [String] = []
        for incognito in [false, true] {
            let backups = joinPath(ProfileLayout.stateRoot(incognito: incognito), ProfileLayout.backupsDirectory)
            for id in names(backups) {
                for stamp in names(joinPath(backups, id)) {
                    let entry = joinPath(backups, id, stamp)
                    found += names(entry).filter { $0.hasPrefix(RepairResumption.manifestInProgress) }.map { joinPath(entry, $0) }
                }
            }
        }
        return found
    }

    /// True when an interrupted repair left something to settle: a staged directory, or a
    /// manifest half-written into a set-aside entry.
    func hasWorkLeft() -> Bool { !staged().isEmpty || !unfinishedManifests().isEmpty }

    /// Settles every staged directory of the profile and removes half-written manifests (the
    /// entry stays listed and restorable without one); returns what was done, as steps. Nothing
    /// else is touched: temporary files elsewhere are the user's, left for repair to set aside.
    func settleAll() throws -> [RepairStep] {
        var steps: [RepairStep] = []
        for staged in staged() {
            let parent = parentPath(staged)
            let directory = joinPath(parent, String(lastPathComponent(staged).dropFirst(RepairResumption.stagingPrefix.count)))
            if let step = try settle(directory) { steps.append(step) }
        }
        for manifest in unfinishedManifests() {
            try writer.fileSystem.unlink(joinPath(profile, manifest))
            steps.append(.removedUnfinished(directory: manifest))
        }
        return steps
    }

    /// Settles the staged repair of `directory`, if there is one.
    func settle(_ directory: String) throws(FileSystemError) -> RepairStep? {
        let live = joinPath(profile, directory)
        let staged = RepairResumption.stagingPath(of: directory)
        let staging = joinPath(profile, staged)
        guard writer.fileSystem.kind(of: staging) == .directory else { return nil }
        // Complete only when its list file, written last, is there (else: cut short, or the live
        // directory went away for another reason while a partial copy lay beside it).
        let complete = [ProfileLayout.metadataFile, ProfileLayout.legacySessionFile].contains { name in
            writer.fileSystem.kind(of: joinPath(staging, name)) == .file
        }
        if writer.fileSystem.kind(of: live) == nil && complete {
            try writer.move(staging, to: live)
            return .finishedInterrupted(directory: directory)
        }
        try writer.removeTree(staging)
        return .removedUnfinished(directory: staged)
    }
}
