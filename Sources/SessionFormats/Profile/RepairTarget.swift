import FileSystemKit

/// The directory to give a command that changes a profile (repair, aside) for a PATH a reading
/// command took, so that a suggested next command runs as printed.
public enum RepairTarget {
    /// PATH itself when it is a directory; for a file, the nearest directory above it that holds
    /// a profile (absolute); nil for a bundle or a file no profile holds.
    public static func directory(for path: String) -> String? {
        let fileSystem = POSIXFileSystem()
        guard let kind = fileSystem.resolvedKind(of: path), !CompressedInput.isGzip(path) else { return nil }
        if kind == .directory { return path }
        // The profile a settled read of the file would wait on: one walk up, shared.
        return SettledRead.of(path)?.profile
    }
}
