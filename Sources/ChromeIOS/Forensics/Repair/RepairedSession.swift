import FileSystemKit
import SessionForensics
import SessionFormats
import SessionModel

/// The repaired form of one session directory: the list to write and each tab directory's files.
package struct RepairedSession: Sendable, Hashable {
    /// One tab directory as repair writes it.
    package struct TabFiles: Sendable, Hashable {
        /// The directory's name (`%08x` of the tab id).
        package var directory: String
        /// data.pb: the original bytes when the history needed no change, else canonical bytes.
        package var data: [UInt8]
        /// state.pb, carried over only when it still matches the history and Chrome would load it.
        package var state: [UInt8]?

        /// Every stored property, as given.
        package init(directory: String, data: [UInt8], state: [UInt8]? = nil) {
            self.directory = directory
            self.data = data
            self.state = state
        }
    }

    /// The list (tabs without histories).
    package var session: Session
    /// The list as it was read (salvaged up to the damage; empty when missing), for the effects.
    package var stored: Session? = nil
    /// session_metadata.pb: the original bytes when the list needed no change, else canonical bytes.
    package var metadata: [UInt8]
    /// The tab directories, in list order.
    package var tabs: [TabFiles]

    /// True when writing it would leave the snapshot's directory exactly as it is.
    package func matches(_ snapshot: SessionDirectoryRead) -> Bool {
        guard snapshot.others.isEmpty, snapshot.metadata == .bytes(metadata),
            snapshot.tabDirectories.count == tabs.count
        else { return false }
        let byName = Dictionary(snapshot.tabDirectories.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        return tabs.allSatisfy { tab in
            guard let directory = byName[tab.directory] else { return false }
            return directory.others.isEmpty && directory.data == .bytes(tab.data)
                && directory.state == tab.state && (directory.stateSize == nil) == (tab.state == nil)
        }
    }

    /// The directory's files in the order repair writes them: each tab directory's data.pb (and
    /// state.pb), then session_metadata.pb, last, so that a staged copy holding it is complete.
    package var files: [RepairPlan.PlannedFile] {
        var files: [RepairPlan.PlannedFile] = []
        for tab in tabs {
            files.append(.init(joinPath(tab.directory, ProfileLayout.tabDataFile), tab.data))
            if let state = tab.state { files.append(.init(joinPath(tab.directory, ProfileLayout.tabStateFile), state)) }
        }
        files.append(.init(ProfileLayout.metadataFile, metadata))
        return files
    }

    /// Every stored property, as given.
    package init(session: Session, stored: Session? = nil, metadata: [UInt8], tabs: [TabFiles]) {
        self.session = session
        self.stored = stored
        self.metadata = metadata
        self.tabs = tabs
    }
}
