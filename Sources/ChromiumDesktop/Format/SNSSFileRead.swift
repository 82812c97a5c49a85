import Archive
import FileSystemKit
import SessionFormats
import SessionModel

/// A Chromium desktop session file as read: its decoding, or why it could not be read.
///
/// A large file is mapped rather than read (`FileBytes`): the decoding points into the file's
/// pages, and a file cut shorter while it is read is told apart (`FileBytes.wasCut`) and named
/// unreadable, never decoded from the zeros that stand for what went.
public struct SNSSFileRead: BrowserSessionFile {
    /// Why the file could not be read (nil when it was).
    public var failure: FormatError?
    public var decoded: SNSSSessionFile?

    /// Reads and decodes the session file of `source` (its type from its name: `Session_`, `Tabs_`, `Apps_`).
    static func read(_ source: SessionSource, tree: ReadableTree) -> SNSSFileRead {
        let type = ChromiumDesktopLayout.type(ofName: lastPathComponent(source.path)) ?? .session
        let bytes: FileBytes
        do {
            bytes = try tree.readBytes(source.path)
        } catch {
            let failure = tree.kind(of: source.path) == nil ? FormatError.unreadable(path: source.path, reason: "missing") : error
            return SNSSFileRead(failure: failure, decoded: nil)
        }
        let decoded = SNSSSessionFile.decode(bytes, type: type, product: source.chromiumProduct)
        if let cut = cutWhileRead(decoded, path: source.path) { return SNSSFileRead(failure: cut, decoded: nil) }
        return SNSSFileRead(failure: nil, decoded: decoded)
    }

    /// The error for a file cut shorter while it was read (nil when it was not).
    static func cutWhileRead(_ decoded: SNSSSessionFile, path: String) -> FormatError? {
        decoded.file.bytes.wasCut ? .unreadable(path: path, reason: "the file was cut shorter while it was read") : nil
    }

    /// The windows of the file as salvage recovers them; a file whose records cannot be read
    /// (encrypted, another version, no SNSS header) is an error saying so.
    public func sessions(_ source: SessionSource, reader: SessionReader, history: Bool) throws(FormatError) -> [Session] {
        let path = reader.displayPath(source.path)
        if let failure { throw failure.naming(path) }
        guard let decoded else { throw .unreadable(path: path, reason: "missing") }
        switch decoded.file.header {
        case .notSNSS:
            throw .invalidDocument(path: path, reason: "no SNSS header (the file is shorter than 8 bytes or does not start with SNSS)")
        case .encrypted(let version):
            throw .invalidDocument(
                path: path, reason: "SNSS version \(version) is encrypted: its records cannot be read without the browser's key")
        case .unknownVersion(let version): throw .invalidDocument(path: path, reason: "SNSS version \(version), which no Chromium writes")
        case .plain:
            // The strings are decoded from the file's pages now: a cut since the read shows here.
            let sessions = decoded.sessions(file: source.id, history: history)
            if let cut = Self.cutWhileRead(decoded, path: path) { throw cut }
            return sessions
        }
    }
}

extension SNSSFileRead {
    /// Where Chrome stops reading the file (its first damage, or the first command its replay
    /// stops at), when tabs were read past it.
    public func salvageDamage(_ source: SessionSource, reader: SessionReader) -> FormatError? {
        guard failure == nil, let decoded, let chrome = decoded.chrome, let salvage = decoded.salvage else { return nil }
        let restored = Set(chrome.windows.flatMap { $0.tabs.map(\.id) })
        let salvaged = salvage.windows.flatMap(\.tabs).filter { $0.salvaged || !restored.contains($0.id) }
        guard !salvaged.isEmpty else { return nil }
        let path = reader.displayPath(source.path)
        let stop = chrome.stops.first
        let damage = decoded.file.damage.first
        if let stop, damage.map({ stop.offset < $0.offset }) ?? true {
            let why =
                stop.unparsable.map { "command \(stop.id) does not read (\($0))" } ?? "command id \(stop.id) is one Chromium does not know"
            return .damaged(
                file: path, offset: stop.offset,
                reason:
                    "\(why): Chrome stops replaying here; \(salvaged.count) tab\(salvaged.count == 1 ? "" : "s") marked salvaged were read past it"
            )
        }
        guard let damage else { return nil }
        return .damaged(
            file: path, offset: damage.offset,
            reason:
                "\(damage.reason): Chrome stops reading here; \(salvaged.count) tab\(salvaged.count == 1 ? "" : "s") marked salvaged were read past it"
        )
    }
}

extension SessionRead {
    /// The session file read, for a Chromium desktop session file: its decoding, or why it could not be read.
    public var snss: SNSSFileRead? {
        guard case .file(let file) = content else { return nil }
        return file as? SNSSFileRead
    }
}
