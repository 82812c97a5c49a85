import FileSystemKit
import SessionFormats
import SessionModel

/// A Firefox for iOS legacy tab archive as read: the file and what it decodes to (nil when it
/// could not be read).
public struct FirefoxLegacyFileRead: BrowserSessionFile {
    public var file: FileRead
    public var archive: Result<FirefoxLegacyArchive, FormatError>?

    /// Reads and decodes the archive of `source`.
    static func read(_ source: SessionSource, tree: ReadableTree) -> FirefoxLegacyFileRead {
        let file = FileRead(oneCall: tree, source.path)
        let archive = file.bytes.map { bytes -> Result<FirefoxLegacyArchive, FormatError> in
            Result { () throws(FormatError) in try FirefoxLegacyArchive.decode(bytes, file: source.path) }
        }
        return FirefoxLegacyFileRead(file: file, archive: archive)
    }

    /// The archive's tabs as one session; an archive that cannot be read is an error naming it.
    public func sessions(_ source: SessionSource, reader: SessionReader, history: Bool) throws(FormatError) -> [Session] {
        if case .unreadable(let error) = file { throw error.naming(reader.displayPath(source.path)) }
        guard let archive else { throw .unreadable(path: reader.displayPath(source.path), reason: "missing") }
        switch archive {
        case .success(let archive): return [archive.session(id: source.id, history: history)]
        case .failure(let error):
            if case .damaged = error { throw error.naming(reader.displayPath(source.path)) }
            throw error
        }
    }
}

extension SessionRead {
    /// The legacy tab archive read, for a Firefox for iOS legacy archive: the file and its decoding.
    public var firefoxLegacy: (file: FileRead, archive: Result<FirefoxLegacyArchive, FormatError>?)? {
        guard case .file(let file) = content, let read = file as? FirefoxLegacyFileRead else { return nil }
        return (read.file, read.archive)
    }
}
