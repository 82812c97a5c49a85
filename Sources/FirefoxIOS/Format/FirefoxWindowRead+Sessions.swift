import FileSystemKit
import SessionFormats
import SessionModel

extension FirefoxWindowRead: BrowserSessionFile {
    /// The window as Firefox restores it (its file, else its backup), with its tabs' session
    /// states as histories when `history`. When Firefox loads neither because both are damaged,
    /// the tabs read whole before the damage, marked salvaged (`salvageDamage` names the place);
    /// nothing read is an error naming the window file.
    public func sessions(_ source: SessionSource, reader: SessionReader, history: Bool) throws(FormatError) -> [Session] {
        if let data = window ?? readableWindow { return [data.session(id: source.id, states: history ? statesByTab : nil)] }
        guard let (_, salvaged) = salvage else { throw loadError(reader) }
        var session = salvaged.session(id: source.id, states: history ? statesByTab : nil)
        for index in session.tabs.indices { session.tabs[index].salvaged = true }
        return [session]
    }

    /// Where Firefox stops reading the file whose tabs were salvaged: its damage, naming the file
    /// and the offset, and what Firefox does instead.
    public func salvageDamage(_ source: SessionSource, reader: SessionReader) -> FormatError? {
        guard window == nil, readableWindow == nil, let (side, _) = salvage else { return nil }
        let file = side == .main ? mainWindow : backupWindow
        guard let damage = file?.damage else { return nil }
        let path = reader.displayPath(side == .main ? mainPath : backupPath ?? mainPath)
        let other =
            side == .main
            ? "backup: " + (backupPath == nil ? "none within the input" : whyNotLoaded(.backup)) : "window file: " + whyNotLoaded(.main)
        return .damaged(
            file: path, offset: damage.offset,
            reason:
                "\(damage.reason) (\(other)): Firefox loads neither file and opens the window with one new tab; the tabs marked salvaged were read before the damage"
        )
    }

    /// The damaged file whose tabs read whole before its damage, when Firefox loads neither file:
    /// the window file's, else the backup's; nil when neither has a tab to show.
    private var salvage: (side: Side, window: FirefoxWindowData)? {
        for (side, file) in [(Side.main, mainWindow), (.backup, backupWindow)] {
            if let file, file.damage != nil, let window = file.window, !window.tabs.isEmpty { return (side, window) }
        }
        return nil
    }

    /// Why neither file of the window can be shown, naming the window file as the user gave it.
    private func loadError(_ reader: SessionReader) -> FormatError {
        let backup = backupPath == nil ? "no backup within the input" : "backup: " + whyNotLoaded(.backup)
        let path = reader.displayPath(mainPath)
        switch main {
        case .bytes:
            if let damage = mainWindow?.damage {
                return .damaged(file: path, offset: damage.offset, reason: "\(damage.reason) (\(backup))")
            }
            return .invalidDocument(path: path, reason: "\(whyNotLoaded(.main)) (\(backup))")
        case .missing, .unreadable:
            return .unreadable(path: path, reason: "\(whyNotLoaded(.main)) (\(backup))")
        }
    }
}

extension SessionRead {
    /// The Firefox for iOS window read, for a Firefox window.
    public var firefoxWindow: FirefoxWindowRead? {
        guard case .file(let file) = content else { return nil }
        return file as? FirefoxWindowRead
    }
}
