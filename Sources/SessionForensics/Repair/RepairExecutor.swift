import FileSystemKit
import SessionFormats
import SessionModel
import SessionStore

// Why a crash or an error part way through a repair never leaves a window out of the profile.
//
// Before anything is written, every directory the plan replaces is read whole (`preflight`): a
// repair that would have to refuse (a link, a special file, an unreadable or oversized file)
// refuses here and writes nothing. The intent record then names each directory with the digest
// of its content. A repaired session directory is written whole under
// `<storage>/.sessionctl-repair.<id>` beside the live one (every file through the AtomicWriter,
// session_metadata.pb last, the directory and its parent fsynced), and only then does anything
// happen to the live directory: it is set aside into Backups/ as `aside push` does (a copy by
// hard links with its manifest, renamed into place, then the live directory renamed away and
// removed), and the staged directory is renamed into its place. At every instant the window is
// live (the original, or the repair), or set aside with the complete repair staged beside the
// empty place. The layout alone says which: a staged directory with the live one present is an
// unfinished write (removed: the original is untouched); a staged directory without the live one
// is a finished write whose switch was cut (renamed into place); a directory the intent names that
// is neither gets back the entry holding the content the intent recorded, and no other.
// `RepairResumption` settles all three before anything else, at the next repair and after an error.
/// Carries out a repair plan (see the note above): each session directory is written beside the
/// live one, the original set aside whole as `aside push` does (a hard-link copy with a manifest
/// of every file's size and SHA-256, then the live directory removed), then the new one renamed
/// into place; a legacy session likewise with its session.plist. Nothing is edited in place and
/// nothing is deleted: whatever the repaired session leaves out stays in the set-aside entry.
struct RepairExecutor {
    let aside: Aside

    var writer: AtomicWriter { aside.writer }

    /// Checks, before anything is written, that every directory `plan` replaces or sets aside can
    /// be moved whole (`Aside.checkMovable`): a refused repair changes nothing and leaves no
    /// record. Returns the content digest of each replaced directory that exists, for the intent
    /// record. A dry run makes the same checks, so that it ends as the run would. `held` gives
    /// the bytes of files the plan's read already holds (by path in the profile), not read again.
    func preflight(_ plan: RepairPlan, held: [String: [UInt8]] = [:]) throws -> [String: String] {
        var contents: [String: String] = [:]
        for directory in plan.sessions.map(\.directory) + plan.rewrites.map(\.directory) + plan.legacy.map(\.directory) {
            if writer.fileSystem.kind(of: joinPath(aside.profile, directory)) != nil {
                contents[directory] = try aside.checkMovable(directory, held: held)
            } else {
                try aside.checkInsideProfile(directory)
                try aside.checkInsideProfile(parentPath(directory))
            }
        }
        return contents
    }

    /// Applies `plan`; returns what was done, in order. On an error, what was done is settled
    /// (`RepairResumption`), the intent record with it, before the error goes on.
    func apply(_ plan: RepairPlan, held: [String: [UInt8]] = [:]) throws -> [RepairStep] {
        let contents = try preflight(plan, held: held)
        let resumption = RepairResumption(aside: aside)
        do {
            return try apply(plan, contents: contents, resumption: resumption)
        } catch {
            _ = try? resumption.settleAll()
            throw error
        }
    }

    private func apply(_ plan: RepairPlan, contents: [String: String], resumption: RepairResumption) throws -> [RepairStep] {
        var steps: [RepairStep] = []
        let replaced = plan.sessions.map(\.directory) + plan.rewrites.map(\.directory)
        if !replaced.isEmpty {
            try RepairIntent(directories: replaced, contents: contents.filter { replaced.contains($0.key) }).write(
                writer, profile: aside.profile)
        }
        for repair in plan.sessions {
            let rules = Array(Set(repair.actions.map(\.rule.name))).sorted().joined(separator: ", ")
            try replace(
                repair.directory, session: repair.session, incognito: repair.incognito, files: repair.files.map { ($0.path, $0.bytes) },
                setsAside: repair.setsAside, reason: "sessionctl repair, before fixing: \(rules)",
                resumption: resumption, steps: &steps)
        }
        for rewrite in plan.rewrites {
            let rules = Array(Set(rewrite.actions.map(\.rule.name))).sorted().joined(separator: ", ")
            let name = lastPathComponent(rewrite.file)
            try replace(
                rewrite.directory, session: rewrite.session, incognito: rewrite.incognito, files: [(name, rewrite.bytes)],
                setsAside: true, reason: "sessionctl repair, before fixing: \(rules)", resumption: resumption, steps: &steps)
        }
        for legacy in plan.legacy {
            let entry = try aside.push(
                legacy.session, incognito: legacy.incognito, directory: legacy.directory,
                reason: "sessionctl repair: \(legacy.action.rule.name)")
            steps.append(.setAside(directory: legacy.directory, entry: entry.name, path: entry.path))
        }
        try RepairIntent.remove(writer, profile: aside.profile)
        return steps
    }

    /// Writes `files` as the new content of `directory` (relative to the profile): staged, the
    /// original set aside, the staged tree renamed into place. On an error the directory is
    /// settled (see `RepairResumption`) before the error goes on.
    private func replace(
        _ directory: String, session: SessionID, incognito: Bool, files: [(String, [UInt8])], setsAside: Bool,
        reason: String, resumption: RepairResumption, steps: inout [RepairStep]
    ) throws {
        let live = joinPath(aside.profile, directory)
        let staging = joinPath(aside.profile, RepairResumption.stagingPath(of: directory))
        // Nothing is written, not even the staged copy, where it would land outside the profile
        // or where the original could not be set aside whole: `preflight` read every file before
        // the first write; the path is checked again here, as it costs no read.
        try aside.checkInsideProfile(directory)
        do {
            let mode = (writer.fileSystem.permissions(of: live) ?? 0o755) & 0o777
            if writer.fileSystem.kind(of: staging) != nil { try writer.removeTree(staging) }
            try writer.makeDirectories(staging, mode: mode)
            for (relative, bytes) in files {
                let parent = parentPath(relative)
                if !parent.isEmpty { try writer.makeDirectories(joinPath(staging, parent), mode: mode) }
                try writer.write(bytes, to: joinPath(staging, relative))
            }
            try writer.seal(staging)
            if setsAside, writer.fileSystem.kind(of: live) != nil {
                let entry = try aside.push(session, incognito: incognito, directory: directory, reason: reason)
                steps.append(.setAside(directory: directory, entry: entry.name, path: entry.path))
            }
            try writer.move(staging, to: live)
            steps += files.map { .wrote(joinPath(directory, $0.0)) }
        } catch {
            _ = try? resumption.settleAll()
            throw error
        }
    }
}
