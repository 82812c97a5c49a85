import FileSystemKit
import SessionFormats
import SessionModel

/// Writes sessions as a Chrome for iOS profile tree, in Chrome's order: each tab's data.pb, then
/// session_metadata.pb last as the commit point; every file through the `AtomicWriter`.
public struct ProfileWriter: Sendable {
    public let writer: AtomicWriter

    public init(writer: AtomicWriter = AtomicWriter()) { self.writer = writer }

    /// The directory of a session inside a profile.
    public static func sessionDirectory(profile: String, session: Session) -> String {
        joinPath(profile, ProfileLayout.sessionDirectory(session.id, incognito: session.incognito))
    }

    /// Writes one session under `profile`: tab directories and data.pb for every tab that has a
    /// history, then session_metadata.pb. Existing files of the session are replaced atomically.
    public func write(_ session: Session, profile: String) throws(FileSystemError) {
        try write(session, into: ProfileWriter.sessionDirectory(profile: profile, session: session))
    }

    /// Writes one session into `directory` (created if missing), as `write(_:profile:)` does.
    public func write(_ session: Session, into directory: String) throws(FileSystemError) {
        try writer.makeDirectories(directory)
        for tab in session.tabs {
            guard let history = tab.history else { continue }
            let tabDirectory = joinPath(directory, Tab.directoryName(for: tab.id))
            try writer.makeDirectories(tabDirectory)
            try writer.write(ChromeProtoCodec.encodeTabData(history), to: joinPath(tabDirectory, ProfileLayout.tabDataFile))
        }
        try writer.write(ChromeProtoCodec.encodeSessionMetadata(session), to: joinPath(directory, ProfileLayout.metadataFile))
    }
}
