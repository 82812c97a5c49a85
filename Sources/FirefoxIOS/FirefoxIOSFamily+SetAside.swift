import FileSystemKit
import SessionFormats
import SessionModel

/// Firefox for iOS keeps a window as files rather than a directory of its own: the window file,
/// its backup and its tabs' session states. Each window is one entry of those files.
extension FirefoxIOSFamily {
    /// Every window (or the window `session`) with the files of it that are there: its file, its
    /// backup, its tabs' session states. Firefox for iOS keeps no incognito side on disk (its
    /// private tabs are in the windows).
    public func setAsideUnits(_ input: LocatedInput, session: SessionID?, incognito: Bool) throws(FileSystemError) -> [SetAsideUnit] {
        guard !incognito else { return [] }
        return InputRead(input, depth: .histories).sessions.compactMap { read in
            guard let window = read.firefoxWindow, session == nil || read.source.id == session else { return nil }
            var files: [String] = []
            if window.main != .missing { files.append(window.mainPath) }
            if window.backup != .missing, let backup = window.backupPath { files.append(backup) }
            files += window.tabStates.filter { $0.file != .missing }.map(\.path)
            return SetAsideUnit(session: read.source.id, incognito: false, content: .files(files, removedLast: loadedFirst(of: files)))
        }
    }

    public var setAsideRoots: Set<String> {
        [
            FirefoxIOSLayout.profileDirectory, FirefoxIOSLayout.windowDataDirectory, FirefoxIOSLayout.backupDirectory,
            FirefoxIOSLayout.tabSessionDataDirectory
        ]
    }

    /// The window files (`window-data/window-<UUID>`): while one is there, Firefox lists the window.
    public func loadedFirst(of files: [String]) -> [String] {
        files.filter { pathComponents($0).dropLast().last == FirefoxIOSLayout.windowDataDirectory }
    }
}
