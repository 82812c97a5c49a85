import FileSystemKit
import SessionModel

/// One session of an input as read: where it lives and what its files hold, decoded.
public struct SessionRead: Sendable {
    /// What was read, by the kind of session.
    public enum Content: Sendable {
        /// `SessionStorage/<id>/` (or a metadata file given alone).
        case directory(SessionDirectoryRead)
        /// A lone data.pb: the file and what it decodes to (nil when it could not be read).
        case tabData(FileRead, Result<TabHistory, FormatError>?)
        /// A session.plist: the file and the window it decodes to (nil when it could not be read).
        case legacy(FileRead, Result<LegacyWindow, FormatError>?)
        /// A Firefox for iOS window: its file, its backup and its tabs' session states.
        case firefoxWindow(FirefoxWindowRead)
        /// A Firefox for iOS legacy tab archive: the file and what it decodes to (nil when it
        /// could not be read).
        case firefoxLegacy(FileRead, Result<FirefoxLegacyArchive, FormatError>?)
        /// A Firefox desktop session file: the file and what it decodes to (nil when it could not be read).
        case firefoxSessionstore(FileRead, SessionstoreFile?)
        /// A Chromium desktop session file: the file and what it decodes to (nil when it could not be read).
        case snss(FileRead, SNSSSessionFile?)
    }

    public var source: SessionSource
    public var content: Content

    public init(source: SessionSource, content: Content) {
        self.source = source
        self.content = content
    }

    /// The window a session.plist decodes to.
    public var legacyWindow: LegacyWindow? {
        if case .legacy(_, let window?) = content { return try? window.get() }
        return nil
    }

    /// The Firefox for iOS window read, for a Firefox window.
    public var firefoxWindow: FirefoxWindowRead? {
        if case .firefoxWindow(let window) = content { return window }
        return nil
    }

    /// The legacy tab archive read, for a Firefox for iOS legacy archive: the file and its decoding.
    public var firefoxLegacy: (file: FileRead, archive: Result<FirefoxLegacyArchive, FormatError>?)? {
        if case .firefoxLegacy(let file, let archive) = content { return (file, archive) }
        return nil
    }

    /// The session file read, for a Firefox desktop session file: the file and its decoding.
    public var sessionstore: (file: FileRead, decoded: SessionstoreFile?)? {
        if case .firefoxSessionstore(let file, let decoded) = content { return (file, decoded) }
        return nil
    }

    /// The session file read, for a Chromium desktop session file: the file and its decoding.
    public var snss: (file: FileRead, decoded: SNSSSessionFile?)? {
        if case .snss(let file, let decoded) = content { return (file, decoded) }
        return nil
    }

    /// The directory that holds the session: the session directory, or the one holding its file.
    public var directoryPath: String {
        source.kind == .optimizedDirectory ? source.path : pathComponents(source.path).dropLast().joined(separator: "/")
    }

    /// The session directory read, for an optimized session.
    public var directory: SessionDirectoryRead? {
        if case .directory(let directory) = content { return directory }
        return nil
    }
}
