import SessionModel

extension SessionReader {
    /// The windows of a Chromium desktop session file as salvage recovers them; a file whose
    /// records cannot be read (encrypted, another version, no SNSS header) is an error saying so.
    func snssSessions(
        _ read: SessionRead, _ file: FileRead, _ decoded: SNSSSessionFile?, history: Bool
    ) throws(FormatError)
        -> [Session]
    {
        let path = displayPath(read.source.path)
        if case .unreadable(let error) = file { throw error.naming(path) }
        guard let decoded else { throw .unreadable(path: path, reason: "missing") }
        switch decoded.file.header {
        case .notSNSS:
            throw .invalidDocument(path: path, reason: "no SNSS header (the file is shorter than 8 bytes or does not start with SNSS)")
        case .encrypted(let version):
            throw .invalidDocument(
                path: path, reason: "SNSS version \(version) is encrypted: its records cannot be read without the browser's key")
        case .unknownVersion(let version): throw .invalidDocument(path: path, reason: "SNSS version \(version), which no Chromium writes")
        case .plain: return decoded.sessions(file: read.source.id, history: history)
        }
    }
}
