import Archive
import ChromiumDesktop
@_spi(CrashTesting) import CrashSimulator
import FileSystemKit
import SessionFormats
import SessionModel
import SessionStore

/// How the model of Chromium desktop's session store writes its `Session_` files: as Chrome's
/// `CommandStorageBackend` does by default, with its flush-after-append feature on, or made
/// durable (docs/chromium-desktop-format.md, "The writer").
public enum ChromiumDesktopSaveProtocol: String, Sendable, CaseIterable {
    /// Chrome's default: commands appended to the open file, each serialised and written in one
    /// write (`CommandStorageBackend::AppendCommandToFile`, `command.Serialize()`), with no flush
    /// (`SessionStorageFlushAfterAppendingCommands` is disabled by default); a reset creates a
    /// new timestamped file, writes the full state and the marker, then deletes the file of two
    /// resets before; nothing is fsynced.
    case chromium
    /// Chrome's default as older Chromium wrote each record: its size, its id and its contents in
    /// three writes (`AppendCommandToFile` before it wrote `SessionCommand::Serialize()` once).
    case splitWrites = "chromium-split-writes"
    /// The same with the feature on: the file flushed (fsynced) after each batch of commands.
    /// Directories are still never fsynced.
    case flush = "chromium-flush"
    /// The same steps made durable: each batch fsynced; a reset's file written and fsynced under a
    /// temporary name Chrome does not list, renamed into place and the `Sessions` directory
    /// fsynced before an older file is deleted; the directory fsynced after each deletion.
    case durable = "chromium-durable"

    /// A one-line description for help texts and reports.
    public var summary: String {
        switch self {
        case .chromium:
            return "Chrome's default: each command written in one write without a flush, a reset writes a new file, nothing fsynced"
        case .splitWrites: return "Chrome's default as older Chromium wrote a command: size, id and contents in three writes"
        case .flush: return "Chrome with SessionStorageFlushAfterAppendingCommands on: each batch of commands fsynced, no directory fsync"
        case .durable:
            return "Chrome's steps made durable: each batch fsynced, a reset's file renamed into place once fsynced, the directory fsynced"
        }
    }
}
