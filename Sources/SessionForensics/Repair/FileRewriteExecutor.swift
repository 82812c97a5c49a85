import FileSystemKit
import SessionFormats
import SessionStore

/// Carries out the whole-file rewrites of a repair plan (`FileRewrite`: the families whose
/// sessions are files, Firefox for iOS, Firefox desktop and Chromium desktop), one by one: the
/// files a rewrite replaces or removes are set aside first, together, into one entry with a
/// manifest (hard links put together under a temporary name and renamed into place:
/// `pushFiles`); then the session file is written atomically and durably; then the files it only removes are
/// unlinked (the directory fsynced). Nothing is edited in place and nothing is lost: interrupted
/// before the entry is in place, nothing changed (the next repair sweeps the temporary
/// directory); after, the originals are in the entry and the next repair, finding the same
/// problems, does the rest.
package struct FileRewriteExecutor {
    package let aside: Aside

    /// Checks, before anything is written, that every file the plan sets aside is a regular file
    /// inside the profile (not reached through a link) and that every file it writes is inside it.
    ///
    /// A rewrite that would leave the live session fewer tabs than the browser restores from what
    /// it replaces, or that says it cannot be carried out, is refused (`cannotRepair`); so is one
    /// whose set-aside entry (`Backups/`, `Backups/<id>`) would be reached through a link.
    package func preflight(_ plan: RepairPlan) throws {
        for window in plan.fileRewrites {
            if let refusal = window.refusal {
                throw ForensicsError.cannotRepair(path: joinPath(aside.profile, window.file), reason: refusal)
            }
            if window.writesWindow, window.tabs < window.restoredBefore {
                throw ForensicsError.cannotRepair(
                    path: joinPath(aside.profile, window.file),
                    reason:
                        "it would hold \(window.tabs) tab\(window.tabs == 1 ? "" : "s") where the browser restores \(window.restoredBefore) from the files it replaces; nothing was changed"
                )
            }
            if !window.setAside.isEmpty { try aside.checkEntryInsideProfile(id: window.window, incognito: false) }
            for file in window.setAside {
                try aside.checkInsideProfile(file)
                guard aside.fileSystem.kind(of: joinPath(aside.profile, file)) == .file else {
                    throw ForensicsError.unsafeToMove(
                        path: joinPath(aside.profile, file), reason: "not a regular file (a link, a directory or a special file)")
                }
            }
            try aside.checkInsideProfile(parentPath(window.file))
            // What the window file is replaced over must be a file it set aside, or nothing (never a link).
            if window.writesWindow, let kind = aside.fileSystem.kind(of: joinPath(aside.profile, window.file)),
                kind != .file || !window.setAside.contains(window.file)
            {
                throw ForensicsError.unsafeToMove(
                    path: joinPath(aside.profile, window.file), reason: "not a regular file (a link, a directory or a special file)")
            }
        }
    }

    /// Applies the plan's whole-file rewrites; returns what was done, in order.
    package func apply(_ plan: RepairPlan) throws -> [RepairStep] {
        try preflight(plan)
        var steps: [RepairStep] = []
        let setAside = SessionSetAside(writer: aside.writer, profile: aside.profile)
        for window in plan.fileRewrites {
            var entryPath: String?
            if !window.setAside.isEmpty {
                let rules = Set(window.actions.map(\.rule.name)).sorted().joined(separator: ", ")
                let entry = try setAside.pushFiles(
                    window.setAside, key: SessionKey(id: window.window, incognito: false),
                    reason: "sessionctl repair, before fixing: \(rules)",
                    time: aside.clock(), toolVersion: aside.toolVersion)
                steps.append(.setAsideFiles(files: window.setAside, entry: "\(window.window)@\(entry.stamp)", path: entry.path))
                entryPath = entry.path
            }
            for state in window.stateFiles where aside.fileSystem.kind(of: joinPath(aside.profile, state.path)) == nil {
                let path = joinPath(aside.profile, state.path)
                try aside.writer.makeDirectories(parentPath(path))
                try aside.writer.write(state.bytes, to: path)
                steps.append(.wrote(state.path))
            }
            if let bytes = window.bytes {
                let path = joinPath(aside.profile, window.file)
                try aside.writer.makeDirectories(parentPath(path))
                try aside.writer.write(bytes, to: path)
                steps.append(.wrote(window.file))
            }
            for file in window.removes {
                let path = joinPath(aside.profile, file)
                // Only the file that was set aside is removed: one the browser rewrote since (it may
                // be running) is left for the next repair to judge.
                let kept = entryPath.flatMap { try? aside.fileSystem.read(joinPath(aside.profile, $0, file), limit: Int.max) }
                guard let kept, (try? aside.fileSystem.read(path, limit: Int.max)) == kept else {
                    steps.append(.settledSetAside(what: "left \(file) in place: it changed after it was set aside"))
                    continue
                }
                try aside.fileSystem.unlink(path)
                try aside.writer.syncDirectory(parentPath(path))
                steps.append(.removed(file))
            }
        }
        return steps
    }

    /// Removes what an interrupted write left in the directories the family of `input` writes its
    /// session files into (the writer's temporary names, which no browser reads): settled before
    /// anything else, as Chrome for iOS's are.
    package func sweep(_ input: LocatedInput) throws -> [RepairStep] {
        try sweep(directories: Set(BrowserFamilies.family(of: input).sweptDirectories(input)).sorted())
    }

    /// Removes what an interrupted write left in `directories` (relative to the profile), putting
    /// back a file whose replacing rename a power loss undid.
    package func sweep(directories: [String]) throws -> [RepairStep] {
        var steps: [RepairStep] = []
        for directory in directories {
            let path = joinPath(aside.profile, directory)
            guard aside.fileSystem.kind(of: path) == .directory else { continue }
            let names = try aside.fileSystem.list(path)
            let leftovers = names.filter { AtomicWriter.isTemporaryName($0) || AtomicWriter.isBackupName($0) }
            for name in leftovers {
                let original = String(name.dropFirst(AtomicWriter.backupPrefix.count))
                if AtomicWriter.isBackupName(name), !names.contains(original) {
                    // The file a write was replacing, whose rename a power loss undid: put back.
                    try aside.fileSystem.rename(joinPath(path, name), to: joinPath(path, original))
                    steps.append(
                        .settledSetAside(what: "put \(joinPath(directory, original)) back, which an interrupted write was replacing"))
                    continue
                }
                try aside.fileSystem.unlink(joinPath(path, name))
                steps.append(.settledSetAside(what: "removed \(joinPath(directory, name)), left by an interrupted write"))
            }
            if !leftovers.isEmpty { try aside.writer.syncDirectory(path) }
        }
        return steps
    }

    /// Every stored property, as given.
    package init(aside: Aside) {
        self.aside = aside
    }
}
