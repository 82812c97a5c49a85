@_spi(CrashTesting) import CrashSimulator
import FileSystemKit
import FirefoxIOS
import SessionFormats
import SessionModel

/// How the model of Firefox for iOS's tab store writes a window file: as Firefox does, or a
/// variant of the same layout that keeps every completed save (docs/firefox-ios-format.md, "Saving").
public enum FirefoxIOSSaveProtocol: String, Sendable, CaseIterable {
    /// Firefox's own: a throttled save removes the window's backup and copies the window file to
    /// it (`FileManager.copyItem`, never fsynced), then writes the window file with
    /// `Data.write(.atomic)`: a temporary file, fsynced (swift-foundation's Data+Writing.swift,
    /// `write(buffer:toFileDescriptor:)`, before `writeToFileAux` renames it), renamed over it,
    /// the directory never fsynced; a forced save writes the window file alone.
    case firefox
    /// Firefox's files written as an older model had them: the temporary file renamed without
    /// the fsync Foundation makes, to show what that fsync saves.
    case unsynced = "firefox-unsynced"
    /// The same files, made durable: each written under a temporary name, fsynced, renamed over
    /// the old one, its directory fsynced; the backup is replaced the same way instead of being
    /// removed first, and before every save, forced ones included, so that while the window file
    /// is being replaced its backup is the last save that returned.
    case durable = "firefox-durable"

    /// A one-line description for help texts and reports.
    public var summary: String {
        switch self {
        case .firefox:
            return
                "Firefox's own: backup removed then copied, window file written by Data.write(.atomic) (temporary file fsynced, renamed, no directory fsync)"
        case .unsynced: return "Firefox's files with the temporary file renamed unfsynced (what Foundation's fsync saves)"
        case .durable:
            return "Firefox's files, each replaced by a fsynced temporary file and a directory fsync, the backup before every save"
        }
    }
}
