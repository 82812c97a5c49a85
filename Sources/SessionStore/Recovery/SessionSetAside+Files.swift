import FileSystemKit
import SessionModel

extension SessionSetAside {
    /// Sets some files of a window aside, as `push` sets a session directory aside with `.copy`:
    /// each file hard-linked under a temporary directory beside the entry at its path relative to
    /// the profile (no data copied, every directory fsynced), the manifest written into it, the
    /// whole renamed into place as `Backups/<id>/<stamp>/`. The live files stay where they are
    /// (a caller that replaces or removes one does so after). For a browser whose window is a set
    /// of files rather than a directory of its own (Firefox for iOS).
    ///
    /// Interrupted, it leaves only the temporary directory, which `TemporaryFileSweeper` removes.
    public func pushFiles(
        _ files: [String], key: SessionKey, reason: String, time: Timestamp, toolVersion: String? = nil
    ) throws(FileSystemError) -> SetAsideEntry {
        let parent = joinPath(SessionSetAside.backupsDirectory(incognito: key.incognito), key.id)
        var stampTime = time
        var stamp = SessionSetAside.stamp(for: stampTime)
        while writer.fileSystem.kind(of: joinPath(profile, parent, stamp)) != nil {
            stampTime = Timestamp(microseconds: stampTime.microseconds + 1)
            stamp = SessionSetAside.stamp(for: stampTime)
        }
        try writer.makeDirectories(joinPath(profile, parent), mode: 0o700)
        let staged = joinPath(parent, AtomicWriter.temporaryPrefix + stamp)
        let stagedPath = joinPath(profile, staged)
        if writer.fileSystem.kind(of: stagedPath) != nil { try writer.removeTree(stagedPath, syncEachDirectory: false) }
        try writer.makeDirectories(stagedPath, mode: 0o700)
        var directories: Set<String> = [stagedPath]
        for file in files.sorted() {
            let destination = joinPath(stagedPath, file)
            var directory = parentPath(destination)
            try writer.makeDirectories(directory, mode: 0o700)
            try writer.fileSystem.link(joinPath(profile, file), to: destination)
            while directory.count > stagedPath.count, directories.insert(directory).inserted { directory = parentPath(directory) }
        }
        for directory in directories.sorted(by: { $0.count > $1.count }) { try writer.syncDirectory(directory) }
        try writeManifest(
            key: key, entry: staged, reason: reason, time: stampTime, originalPath: files.sorted().first ?? "", toolVersion: toolVersion,
            files: files.sorted())
        try writer.move(stagedPath, to: joinPath(profile, parent, stamp))
        return SetAsideEntry(key: key, path: joinPath(parent, stamp), stamp: stamp, reason: reason)
    }
}
