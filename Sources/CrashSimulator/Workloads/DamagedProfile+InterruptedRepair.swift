import FileSystemKit
import SessionForensics
import SessionFormats
import SessionModel
import SessionStore

extension DamagedProfile {
    /// Leaves the windows `windows` of the profile at `profile` as a `sessionctl repair` of them
    /// cut short leaves them (`RepairIntent`, `InterruptedCommands`): the repair's intent record
    /// names each with its content digest, each original is set aside in `Backups/` by a rename,
    /// and the first one's repaired copy (every tab whole) is staged beside its empty place, list
    /// last, as if the rename putting it in place never reached the disk.
    ///
    /// Between them the two kinds of window are both ways the next run settles a repair: it
    /// finishes the first (renames the staged copy into place) and puts the second's original back.
    static func interruptRepair(of windows: [String], profile: String, on fileSystem: any FileSystem) throws(FileSystemError) {
        let writer = AtomicWriter(fileSystem: fileSystem)
        let directories = windows.map { ProfileLayout.sessionDirectory(WorkloadDriver.sessionID(of: $0), incognito: false) }
        var contents: [String: String] = [:]
        for directory in directories {
            contents[directory] = try ContentDigest.ofDirectory(joinPath(profile, directory), fileSystem: fileSystem)
        }
        try RepairIntent(directories: directories, contents: contents).write(writer, profile: profile)
        if let window = windows.first, let directory = directories.first {
            let staged = joinPath(profile, InterruptedCommands.repairStagingPath(of: directory))
            try write(session(window), damaged: .intact, at: staged, on: fileSystem)
        }
        let aside = SessionSetAside(writer: writer, profile: profile)
        for directory in directories {
            _ = try aside.push(
                SessionKey(id: lastPathComponent(directory), incognito: false), reason: "sessionctl repair, before fixing",
                time: time, directory: directory)
        }
    }
}
