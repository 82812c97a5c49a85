import FileSystemKit
import SessionModel

/// One session file of a family whose sessions are files (every family but Chrome for iOS, whose
/// session directories `InputRead` reads itself), as its family read and decoded it: what a
/// `SessionRead` holds of it (`SessionRead.Content.file`), and what makes model sessions of it.
///
/// A family reads its files with `BrowserFamily.readFile`; its own code (its validator, planner,
/// set-aside) looks into what it read as its own type, through an accessor of its own on
/// `SessionRead` (as `snss` is Chromium desktop's).
public protocol BrowserSessionFile: Sendable {
    /// The model sessions of the file, with histories when `history` (a desktop session file
    /// holds several windows). Errors name files as the user gave them (`reader.displayPath`).
    func sessions(_ source: SessionSource, reader: SessionReader, history: Bool) throws(FormatError) -> [Session]
    /// Where the browser stops reading the file, when tabs of its `sessions` were read past that
    /// place (and are marked salvaged): the file, the offset and why, as damage; nil otherwise.
    func salvageDamage(_ source: SessionSource, reader: SessionReader) -> FormatError?
}

extension BrowserSessionFile {
    public func salvageDamage(_ source: SessionSource, reader: SessionReader) -> FormatError? { nil }

    /// The one model session that stands for the file: its first window, or an empty session of
    /// its format when it holds none.
    func session(_ source: SessionSource, reader: SessionReader, history: Bool) throws(FormatError) -> Session {
        try sessions(source, reader: reader, history: history).first ?? Session(id: source.id, format: source.format)
    }
}

/// What stands for a session file no family reads (a source of a format no registered family
/// gives, which no family's `locate` makes): reading it is an error saying so.
struct UnreadSessionFile: BrowserSessionFile {
    var reason: String

    func sessions(_ source: SessionSource, reader: SessionReader, history: Bool) throws(FormatError) -> [Session] {
        throw .unreadable(path: reader.displayPath(source.path), reason: reason)
    }
}
