#if canImport(Glibc)
    import FileSystemKit
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Removes what a killed command left while writing an output outside a profile: the temporary
/// file (`AtomicFileOutput`) or staged directory (`StagedDirectory`) beside the output's path,
/// named `.sessionctl-tmp.<name>.<pid>.<serial>` (`d<serial>` for a directory), whose process
/// is gone. Run when a command starts writing that output again, on the real disk only (a
/// process id means nothing to a model file system). A temporary file of a process still
/// running, of another output, or of a name that does not parse is left alone. A process is
/// looked for in this machine's process table (this PID namespace): the temporary of a writer
/// running in another container or on another host sharing the directory would be taken for
/// abandoned, so two machines must not write the same output at once.
public enum AbandonedOutputs {
    /// Removes the abandoned temporaries of `path`; returns their paths.
    @discardableResult
    public static func remove(besides path: String, fileSystem: any FileSystem) -> [String] {
        guard fileSystem is POSIXFileSystem else { return [] }
        let prefix = AtomicWriter.temporaryPrefix + lastPathComponent(path) + "."
        let directory = parentPath(path)
        var removed: [String] = []
        for entry in (try? fileSystem.entries(of: directory)) ?? [] where entry.name.hasPrefix(prefix) {
            let rest = entry.name.dropFirst(prefix.count).split(separator: ".")
            guard rest.count == 2, let process = Int32(rest[0]), process > 0, process != getpid(),
                rest[1].allSatisfy({ $0.isNumber || $0 == "d" }), !isRunning(process), let kind = entry.kind
            else { continue }
            let temporary = joinPath(directory, entry.name)
            guard (try? fileSystem.removeTree(temporary, kind: kind, syncingEachDirectory: false)) != nil else { continue }
            removed.append(temporary)
        }
        if !removed.isEmpty { try? fileSystem.fsyncDirectory(directory) }
        return removed
    }

    /// Whether a process with this id exists (one of another user's counts as running).
    private static func isRunning(_ process: Int32) -> Bool {
        kill(process, 0) == 0 || errno != ESRCH
    }
}
