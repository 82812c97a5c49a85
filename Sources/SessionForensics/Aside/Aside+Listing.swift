import FileSystemKit
import SessionFormats
import SessionModel
import SessionStore

extension Aside {
    /// Every set-aside entry of the profile, regular then incognito, each by session id and time:
    /// ours (`Backups/<id>/<stamp>/`) and Chrome's (`Backups/<id>/session.backup.plist`).
    public func list() throws(FileSystemError) -> [AsideEntry] {
        var entries: [AsideEntry] = []
        for incognito in [false, true] {
            let backups = SessionSetAside.backupsDirectory(incognito: incognito)
            guard fileSystem.kind(of: joinPath(profile, backups)) == .directory else { continue }
            for id in try fileSystem.list(joinPath(profile, backups)) {
                guard (try? AsideEntry.validateSessionID(id)) != nil, !id.hasPrefix("."),
                    fileSystem.kind(of: joinPath(profile, backups, id)) == .directory
                else { continue }
                for name in try fileSystem.list(joinPath(profile, backups, id)) {
                    if let entry = try entry(id: id, incognito: incognito, stamp: name) { entries.append(entry) }
                }
            }
        }
        return entries
    }

    /// Finds an entry by name (`<SessionID>@<stamp>` or `<SessionID>@chrome`).
    public func find(_ name: String) throws -> AsideEntry {
        let (id, stamp) = try AsideEntry.parseName(name)
        for incognito in [false, true] {
            if let entry = try entry(
                id: id, incognito: incognito, stamp: stamp == AsideEntry.chromeSuffix ? ProfileLayout.legacyBackupFile : stamp)
            {
                return entry
            }
        }
        throw ForensicsError.entryNotFound(profile: profile, entry: name)
    }

    /// The entry named by a name inside `Backups/<id>/`, or nil when that name is not an entry.
    func entry(id: SessionID, incognito: Bool, stamp name: String) throws(FileSystemError) -> AsideEntry? {
        let path = joinPath(SessionSetAside.backupsDirectory(incognito: incognito), id, name)
        let absolute = joinPath(profile, path)
        // Listed whatever its kind (a FIFO or an unreadable file included), so that nothing in
        // Backups/ is hidden; restore refuses what does not decode.
        if name == ProfileLayout.legacyBackupFile, !incognito, let kind = fileSystem.kind(of: absolute), kind != .directory {
            let size = kind == .file ? (try? fileSystem.read(absolute)).map { Int64($0.count) } : nil
            let why = size == nil ? " (\(kind == .file ? "unreadable" : "not a regular file"); restore refuses it)" : ""
            return AsideEntry(
                name: "\(id)@\(AsideEntry.chromeSuffix)", session: id, incognito: false, origin: .chrome,
                reason: "set aside by Chrome after an unclean exit" + why, time: nil, path: path,
                files: 1, bytes: size ?? 0, hasManifest: false)
        }
        guard let stampTime = AsideStamp.parse(name), fileSystem.kind(of: absolute) == .directory else { return nil }
        let manifestPath = joinPath(absolute, AsideManifest.fileName)
        let manifest = fileSystem.kind(of: manifestPath) == .file ? (try? fileSystem.read(manifestPath)).flatMap(AsideManifest.decode) : nil
        var files = manifest?.files.count ?? 0
        var bytes = manifest?.files.reduce(Int64(0)) { $0 + $1.size } ?? 0
        if manifest == nil {
            let list = try fileList(absolute)
            files = list.count
            for file in list { bytes += Int64((try? fileSystem.read(joinPath(absolute, file)))?.count ?? 0) }
        }
        return AsideEntry(
            name: "\(id)@\(name)", session: id, incognito: incognito, origin: .sessionctl,
            reason: manifest?.reason, time: manifest?.time ?? stampTime, path: path,
            files: files, bytes: bytes, hasManifest: manifest != nil)
    }
}
