import SessionModel

/// Reads and writes Chrome's legacy `session.plist` (an NSKeyedArchiver binary property list
/// holding one `SessionWindowIOS`).
///
/// Reading is strict: the first problem, from a truncated file to a reference cycle or a value of
/// the wrong type, is a `FormatError.damaged` with the byte offset of the bad byte or object.
public enum LegacySessionCodec {
    /// Decodes the window of a session.plist as stored, before Chrome's repairs.
    public static func decodeWindow(_ bytes: [UInt8], file: String = ProfileLayout.legacySessionFile) throws(FormatError) -> LegacyWindow {
        let plist: BinaryPlist
        do throws(PlistDamage) {
            plist = try BinaryPlistReader.read(bytes)
        } catch {
            throw .damaged(file: file, offset: error.offset, reason: error.reason)
        }
        return try decodeWindow(plist: plist, file: file)
    }

    /// Decodes the window of an already parsed property list (the keyed-archive layer alone).
    ///
    /// Any object table is accepted, also one no reader produced (references out of range,
    /// cycles): every problem is a `FormatError.damaged` at the offset of the object holding it.
    public static func decodeWindow(plist: BinaryPlist, file: String = ProfileLayout.legacySessionFile) throws(FormatError) -> LegacyWindow
    {
        do throws(PlistDamage) {
            var decoder = LegacyArchiveDecoder(archive: try KeyedArchive(plist: plist))
            return try decoder.decodeRoot()
        } catch {
            throw .damaged(file: file, offset: error.offset, reason: error.reason)
        }
    }

    /// Decodes a session.plist into a model session (format `.legacy`), values as stored.
    public static func decodeSession(
        _ bytes: [UInt8], id: SessionID, incognito: Bool,
        file: String = ProfileLayout.legacySessionFile
    ) throws(FormatError) -> Session {
        try decodeWindow(bytes, file: file).session(id: id, incognito: incognito)
    }

    /// The decoder `SessionReader` uses for legacy sources.
    public static func decode(_ bytes: [UInt8], source: SessionSource) throws(FormatError) -> Session {
        try decodeSession(bytes, id: source.id, incognito: source.incognito, file: source.path)
    }

    /// The bytes of a window as a session.plist.
    public static func encode(_ window: LegacyWindow) -> [UInt8] {
        BinaryPlistWriter.encode(LegacyArchiveEncoder.encode(window))
    }

    /// The bytes Chrome's migration to the legacy format writes for a session (see `LegacyWindow.init(_:)`).
    public static func encode(_ session: Session) -> [UInt8] {
        encode(LegacyWindow(session))
    }
}
