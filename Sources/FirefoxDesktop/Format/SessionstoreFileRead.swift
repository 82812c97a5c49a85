import Archive
import FileSystemKit
import SessionFormats
import SessionModel

/// A Firefox desktop session file as read: the file and what it decodes to (nil when it could
/// not be read).
public struct SessionstoreFileRead: BrowserSessionFile {
    public var file: FileRead
    public var decoded: SessionstoreFile?

    /// Reads and decodes the session file of `source` (mozLz4 or plain JSON, by its name).
    static func read(_ source: SessionSource, tree: ReadableTree) -> SessionstoreFileRead {
        let file = FileRead(oneCall: tree, source.path)
        let compressed = SessionstoreRole.compression(ofName: lastPathComponent(source.path))
        return SessionstoreFileRead(
            file: file, decoded: file.bytes.map { SessionstoreFile.decode($0, file: source.path, compressed: compressed) })
    }

    /// Every window of the file (salvaged up to its damage when Firefox would not load it); a file
    /// with no session document in it is an error saying why.
    public func sessions(_ source: SessionSource, reader: SessionReader, history: Bool) throws(FormatError) -> [Session] {
        let path = reader.displayPath(source.path)
        if case .unreadable(let error) = file { throw error.naming(path) }
        guard let decoded else { throw .unreadable(path: path, reason: "missing") }
        guard let document = decoded.document else {
            if let refusal = decoded.containerRefusal {
                throw .invalidDocument(path: path, reason: "not mozLz4 as Firefox reads it: \(refusal)")
            }
            if let damage = decoded.containerDamage, decoded.jsonSize == 0 {
                throw .damaged(
                    file: path, offset: damage.fileOffset, reason: "\(damage.reason) (in its mozLz4 block; nothing before it decodes)")
            }
            if let damage = decoded.decoded.damage {
                throw .damaged(file: path, offset: damage.offset, reason: "\(damage.reason) (in its JSON)")
            }
            throw .invalidDocument(path: path, reason: decoded.whyNotLoaded ?? "not a session")
        }
        var sessions = document.sessions(file: source.id, history: history)
        // Firefox reads nothing of a file it does not load for damage: every tab is salvaged.
        if salvaged {
            for index in sessions.indices {
                for tab in sessions[index].tabs.indices { sessions[index].tabs[tab].salvaged = true }
            }
        }
        return sessions
    }

    /// Whether the file's tabs were read past where Firefox stops: it is damaged and Firefox
    /// does not load it (its JSON does not parse whole, or its block does not decode).
    var salvaged: Bool {
        guard let decoded, decoded.document != nil, decoded.isDamaged else { return false }
        return !decoded.loadsInFirefox && decoded.versionRefusalOnly == false
    }

    /// Where Firefox stops reading a file whose tabs were salvaged.
    public func salvageDamage(_ source: SessionSource, reader: SessionReader) -> FormatError? {
        guard salvaged, let decoded else { return nil }
        let path = reader.displayPath(source.path)
        if let damage = decoded.containerDamage, !decoded.containerLoads {
            return .damaged(
                file: path, offset: damage.fileOffset,
                reason:
                    "\(damage.reason) (in its mozLz4 block): Firefox reads nothing of it, and the tabs marked salvaged were read from what decodes"
            )
        }
        guard let damage = decoded.decoded.damage else { return nil }
        let inside = decoded.container == .mozLz4 ? " of its JSON (inside the mozLz4 block)" : ""
        return .damaged(
            file: path, offset: damage.offset,
            reason:
                "\(damage.reason)\(inside): Firefox's JSON.parse stops here and loads nothing of the file; the tabs marked salvaged were read before it"
        )
    }
}

extension SessionRead {
    /// The session file read, for a Firefox desktop session file: the file and its decoding.
    public var sessionstore: (file: FileRead, decoded: SessionstoreFile?)? {
        guard case .file(let file) = content, let read = file as? SessionstoreFileRead else { return nil }
        return (read.file, read.decoded)
    }
}
