import FileSystemKit
import SessionModel

/// A Chromium desktop session file as read: the file and what it decodes to (nil when it could
/// not be read).
public struct SNSSFileRead: BrowserSessionFile {
    public var file: FileRead
    public var decoded: SNSSSessionFile?

    /// Reads and decodes the session file of `source` (its type from its name: `Session_`, `Tabs_`, `Apps_`).
    static func read(_ source: SessionSource, tree: ReadableTree) -> SNSSFileRead {
        let file = FileRead(oneCall: tree, source.path)
        let type = ChromiumDesktopLayout.type(ofName: lastPathComponent(source.path)) ?? .session
        return SNSSFileRead(file: file, decoded: file.bytes.map { SNSSSessionFile.decode($0, type: type) })
    }

    /// The windows of the file as salvage recovers them; a file whose records cannot be read
    /// (encrypted, another version, no SNSS header) is an error saying so.
    public func sessions(_ source: SessionSource, reader: SessionReader, history: Bool) throws(FormatError) -> [Session] {
        let path = reader.displayPath(source.path)
        if case .unreadable(let error) = file { throw error.naming(path) }
        guard let decoded else { throw .unreadable(path: path, reason: "missing") }
        switch decoded.file.header {
        case .notSNSS:
            throw .invalidDocument(path: path, reason: "no SNSS header (the file is shorter than 8 bytes or does not start with SNSS)")
        case .encrypted(let version):
            throw .invalidDocument(
                path: path, reason: "SNSS version \(version) is encrypted: its records cannot be read without the browser's key")
        case .unknownVersion(let version): throw .invalidDocument(path: path, reason: "SNSS version \(version), which no Chromium writes")
        case .plain: return decoded.sessions(file: source.id, history: history)
        }
    }
}

extension SessionRead {
    /// The session file read, for a Chromium desktop session file: the file and its decoding.
    public var snss: (file: FileRead, decoded: SNSSSessionFile?)? {
        guard case .file(let file) = content, let read = file as? SNSSFileRead else { return nil }
        return (read.file, read.decoded)
    }
}
