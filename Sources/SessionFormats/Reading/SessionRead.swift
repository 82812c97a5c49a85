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
        /// A session file of another family, as its family read it (`BrowserFamily.readFile`): a
        /// Firefox for iOS window (`firefoxWindow`) or legacy archive (`firefoxLegacy`), a Firefox
        /// desktop session file (`sessionstore`), a Chromium desktop one (`snss`).
        case file(any BrowserSessionFile)
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
