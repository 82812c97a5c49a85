import FileSystemKit
import SessionFormats
import SessionModel

/// The file work of one save, prepared in memory (all bytes encoded) so that performing it needs
/// nothing but the file system.
///
/// Order: for every window, its directory and each dirty tab's data.pb (then state.pb written or
/// removed); then every window's session_metadata.pb, the commit point; then the directories of
/// closed tabs are removed. Every file goes through the `AtomicWriter`; every removal is fsynced.
struct SaveJob: Sendable {
    /// One window's part of a save.
    struct Window: Sendable {
        var key: SessionKey
        /// The session directory (absolute or relative to the working directory).
        var directory: String
        /// The list as written (for the record).
        var session: Session
        /// Canonical session_metadata.pb bytes.
        var metadata: [UInt8]
        /// data.pb bytes of each dirty tab.
        var tabData: [(id: TabID, bytes: [UInt8])]
        /// state.pb of each dirty tab: bytes to write, or nil to remove a stale one.
        var tabState: [(id: TabID, bytes: [UInt8]?)]
        /// Tabs whose directories are removed after the commit.
        var closedTabs: [TabID]
        /// True for an incognito window without tabs: its whole directory is removed instead.
        var removeDirectory: Bool
    }

    var windows: [Window]
    /// Removes the whole incognito side (`<profile>/OTR`) instead of writing anything.
    var purgeDirectory: String?

    /// Writes everything up to and including the commit point of every window.
    func commit(_ writer: AtomicWriter) throws(FileSystemError) {
        if let purgeDirectory {
            try writer.removeTreeAtOnce(purgeDirectory)
            return
        }
        for window in windows where !window.removeDirectory {
            try writer.makeDirectories(window.directory)
            for (id, bytes) in window.tabData {
                let tabDirectory = joinPath(window.directory, Tab.directoryName(for: id))
                try writer.makeDirectories(tabDirectory)
                try writer.write(bytes, to: joinPath(tabDirectory, ProfileLayout.tabDataFile))
            }
            for (id, bytes) in window.tabState {
                let statePath = joinPath(window.directory, Tab.directoryName(for: id), ProfileLayout.tabStateFile)
                if let bytes, bytes.count <= ProfileLayout.maxStateSize {
                    try writer.write(bytes, to: statePath)
                } else if writer.fileSystem.kind(of: statePath) != nil {
                    try writer.removeTree(statePath)
                }
            }
        }
        if writer.writeProtocol.removesClosedTabsFirst { _ = try removeClosedTabs(writer) }
        for window in windows where !window.removeDirectory {
            try writer.write(window.metadata, to: joinPath(window.directory, ProfileLayout.metadataFile))
        }
        for window in windows where window.removeDirectory {
            try writer.removeTree(window.directory)
        }
    }

    /// Removes the directories of closed tabs (after the commit); returns those removed per window.
    func removeClosedTabs(_ writer: AtomicWriter) throws(FileSystemError) -> [SessionKey: [TabID]] {
        var removed: [SessionKey: [TabID]] = [:]
        for window in windows where !window.removeDirectory && !window.closedTabs.isEmpty {
            var any = false
            for id in window.closedTabs {
                let tabDirectory = joinPath(window.directory, Tab.directoryName(for: id))
                guard writer.fileSystem.kind(of: tabDirectory) != nil else { continue }
                try writer.removeTree(tabDirectory, syncParent: false)
                removed[window.key, default: []].append(id)
                any = true
            }
            if any, writer.writeProtocol.syncsDirectories { try writer.fileSystem.fsyncDirectory(window.directory) }
        }
        return removed
    }
}
