import Archive
@_spi(CrashTesting) import CrashSimulator
import FileSystemKit
import FirefoxDesktop
import SessionFormats
import SessionModel
import SessionStore

/// How the model of Firefox desktop's session store writes its files: as Firefox's `SessionWriter`
/// does, or the same files made durable (docs/firefox-desktop-format.md, "Saving").
public enum FirefoxDesktopSaveProtocol: String, Sendable, CaseIterable {
    /// Firefox's own: `recovery.jsonlz4` renamed to `recovery.baklz4`, then the new session written
    /// to `recovery.jsonlz4.tmp` and renamed over `recovery.jsonlz4`; at shutdown
    /// `sessionstore.jsonlz4` written the same way and the recovery files removed; at the first
    /// save after loading the clean file, that file renamed to `previous.jsonlz4`. Nothing is
    /// fsynced (`IOUtils.writeJSON` without `flush`).
    case firefox
    /// The same steps with each temporary file fsynced before its rename, the directory fsynced
    /// after each rename and removal, and each move (recovery to its backup, the clean file to
    /// previous.jsonlz4) made by a hard link, a fsync and an unlink, so that each step is on disk
    /// before the next and no file is ever under neither name.
    case durable = "firefox-durable"

    /// A one-line description for help texts and reports.
    public var summary: String {
        switch self {
        case .firefox: return "Firefox's own: recovery rotated to its backup, written by a temporary file and a rename, nothing fsynced"
        case .durable: return "Firefox's steps made durable: files fsynced before their renames, directories after, moves made by links"
        }
    }
}
