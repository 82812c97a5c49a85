import SessionModel

extension FirefoxWindowRead: BrowserSessionFile {
    /// The window as Firefox restores it (its file, else its backup), with its tabs' session
    /// states as histories when `history`; neither file readable is an error naming the window file.
    public func sessions(_ source: SessionSource, reader: SessionReader, history: Bool) throws(FormatError) -> [Session] {
        guard let data = window ?? readableWindow else { throw loadError(reader) }
        return [data.session(id: source.id, states: history ? statesByTab : nil)]
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
