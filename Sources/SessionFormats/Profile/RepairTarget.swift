import FileSystemKit

/// The directory to give a command that changes a profile (repair, aside) for a PATH a reading
/// command took, so that a suggested next command runs as printed.
public enum RepairTarget {
    /// PATH itself when it is a profile or a session directory; for a storage directory
    /// (`SessionStorage`, `Sessions`) or a file, the nearest directory above it that holds a profile
    /// (absolute); nil for a bundle or a file no profile holds.
    /// `isBundle` says that PATH is a compressed bundle when the caller knows it (nil: look).
    public static func directory(for path: String, isBundle: Bool? = nil) -> String? {
        let fileSystem = POSIXFileSystem()
        guard let kind = fileSystem.resolvedKind(of: path), !(isBundle ?? CompressedInput.isGzip(path)) else { return nil }
        // Inside a directory of a family's session state: the profile directory above it.
        let components = pathComponents(InputOpener.absolutePath(path))
        let stateDirectories = Set(BrowserFamilies.all.flatMap(\.sessionStateDirectories))
        if let position = components.lastIndex(where: stateDirectories.contains), position > 0 {
            return "/" + components[..<position].joined(separator: "/")
        }
        if kind == .directory {
            // A storage directory is repaired through its profile; a profile or a session directory as it is.
            let name = lastPathComponent(InputOpener.absolutePath(path))
            guard name == ProfileLayout.optimizedDirectory || name == ProfileLayout.legacyDirectory else { return path }
            return SettledRead.of(path)?.profile ?? path
        }
        // The profile a settled read of the file would wait on: one walk up, shared.
        return SettledRead.of(path)?.profile
    }
}
