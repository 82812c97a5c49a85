@_spi(CrashTesting) import FileSystemKit

/// Removes what a killed command left while writing an output outside a profile: the temporary
/// file (`AtomicFileOutput`) or staged directory (`StagedDirectory`) beside the output's path,
/// named `.sessionctl-tmp.<name>.<pid>.<serial>` (`d<serial>` for a directory), whose writer is
/// gone. Run when a command starts writing that output again, before it looks whether the output
/// exists: a run killed after its output appeared but before its temporary went is cleaned by
/// the next, even though that one refuses to replace the output.
///
/// Whether a writer is gone is the file system's to say (`FileSystemHooks.writerIsGone`; a file
/// system without hooks knows of none, and what it holds is left alone). On the real
/// disk the process id in the name is looked for in this machine's process table (this PID
/// namespace): a temporary of a process still running is left alone, and so is one whose name
/// carries no process id; the temporary of a writer running in another container or on another
/// host sharing the directory would be taken for abandoned, so two machines must not write the
/// same output at once. In the crash simulator's model no process table exists and the names
/// carry no process id: the command run in progress is the only process, so every temporary of
/// that output it did not make itself is a crashed run's. A name with more dot-separated parts
/// is another output's, and is left alone.
public enum AbandonedOutputs {
    /// Removes the abandoned temporaries of `path`; returns their paths.
    @discardableResult
    public static func remove(besides path: String, fileSystem: any FileSystem) -> [String] {
        let prefix = AtomicWriter.temporaryPrefix + lastPathComponent(path) + "."
        let directory = parentPath(path)
        var removed: [String] = []
        for entry in (try? fileSystem.entries(of: directory)) ?? [] where entry.name.hasPrefix(prefix) {
            guard let kind = entry.kind, let writer = writer(of: entry.name.dropFirst(prefix.count)) else { continue }
            let temporary = joinPath(directory, entry.name)
            guard fileSystem.hooks?.writerIsGone(temporary: temporary, process: writer.process) == true,
                (try? fileSystem.removeTree(temporary, kind: kind, syncingEachDirectory: false)) != nil
            else { continue }
            removed.append(temporary)
        }
        if !removed.isEmpty { try? fileSystem.fsyncDirectory(directory) }
        return removed
    }

    /// Who wrote a temporary, as its name's end says.
    enum Writer: Equatable {
        /// `<pid>.<serial>` or `<pid>.d<serial>`.
        case process(Int32)
        /// One part without a dot: a name that carries no process id.
        case unnamed

        /// The process id, when the name carries one.
        var process: Int32? {
            if case .process(let id) = self { return id }
            return nil
        }
    }

    /// The writer a temporary name's end (after `<prefix><output>.`) names; nil for anything but
    /// the two forms of `Writer` (another output's temporary, or a name not of this writer).
    static func writer(of rest: Substring) -> Writer? {
        let parts = rest.split(separator: ".", omittingEmptySubsequences: false)
        switch parts.count {
        case 1:
            return parts[0].isEmpty ? nil : .unnamed
        case 2:
            guard let process = Int32(parts[0]), process > 0, !parts[1].isEmpty,
                parts[1].allSatisfy({ $0.isASCII && ($0.isNumber || $0 == "d") })
            else { return nil }
            return .process(process)
        default:
            return nil
        }
    }
}
