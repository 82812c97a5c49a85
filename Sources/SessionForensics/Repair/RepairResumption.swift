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

    /// Sets aside and restores; its writer is the only way to the disk.
    let aside: Aside
    var writer: AtomicWriter { aside.writer }
    /// The profile directory.
    var profile: String { aside.profile }

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

    /// Settles what an interrupted run left: what every command settles (`Aside.settleInterrupted`),
    /// every staged directory, and each directory the run's intent record names that is neither
    /// live nor staged (its original restored); returns what was done, as steps.
    func settleAll() throws -> [RepairStep] {
        var steps: [RepairStep] = []
        // Temporary files, and set-asides cut short (a manifest completed, the rest of a live
        // directory being removed removed), before the staged repairs are looked at, so that such
        // a remainder is never taken for the live session.
        steps += try aside.settleInterrupted().map { .settledSetAside(what: $0) }
        for staged in staged() {
            let parent = parentPath(staged)
            let directory = joinPath(parent, String(lastPathComponent(staged).dropFirst(RepairResumption.stagingPrefix.count)))
            if let step = try settle(directory) { steps.append(step) }
        }
        // A directory the interrupted repair was replacing that is now neither live nor staged
        // (its original set aside, the repaired copy lost): the original comes back, for this run
        // to repair again.
        if let intent = RepairIntent.read(writer, profile: profile) {
            for directory in intent.directories where writer.fileSystem.kind(of: joinPath(profile, directory)) == nil {
                if let step = try restoreOriginal(of: directory) { steps.append(step) }
            }
            try RepairIntent.remove(writer, profile: profile)
        }
        return steps
    }

    /// Restores the newest set-aside entry of the session whose directory is `directory`.
    private func restoreOriginal(of directory: String) throws -> RepairStep? {
        let parts = pathComponents(directory)
        guard let id = parts.last else { return nil }
        let incognito = parts.first == ProfileLayout.incognitoDirectory
        let entries = try aside.list().filter { $0.session == id && $0.incognito == incognito && $0.origin == .sessionctl }
        guard let newest = entries.max(by: { $0.name < $1.name }) else { return nil }
        let outcome = try aside.restore(newest.name, force: false)
        return .settledSetAside(what: "\(newest.name) restored to \(outcome.destination) (an interrupted repair had set it aside without putting the repaired copy in place)")
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
