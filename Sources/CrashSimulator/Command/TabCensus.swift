import Archive
import FileSystemKit
import SessionFormats
import SessionModel

/// Every tab a profile holds in a readable form, live or set aside: what `crash-test --command`
/// requires a command never to lose, at any crash point.
///
/// Judged from the files alone, not from anything the command says: a live tab is one of a
/// session the reader reads; a set-aside tab is one of an entry under `Backups/<id>/<name>/`
/// (or `OTR/Backups/...`) whose `manifest.json` lists every file of the entry with the size and
/// SHA-256 it has (checked here, not by the code that wrote it). A tab is known by its side,
/// session, id and the URLs and titles of its history, so that a tab whose history changed is a
/// different tab.
struct TabCensus: Equatable {
    /// Live tabs, by key.
    var live: Set<String> = []
    /// Tabs in set-aside entries whose manifests verify, by key.
    var setAside: Set<String> = []
    /// Each live session's tabs in order (key `OTR/id` or `id`): what a re-run must converge to.
    var liveSessions: [String: [String]] = [:]
    /// Set-aside entries whose manifest does not verify (their tabs are not counted).
    var unverifiedEntries: [String] = []

    /// Every tab held, live or set aside.
    var all: Set<String> { live.union(setAside) }

    /// Takes the census of `profile` on `fileSystem`.
    static func take(_ fileSystem: any ReadableFileSystem, profile: String) -> TabCensus {
        var census = TabCensus()
        if let input = try? InputOpener.open(profile, fileSystem: fileSystem), input.kind == .profile {
            for session in SessionReader(input: input).readEach(history: true).sessions {
                let keys = session.tabs.map { key($0, session: session.id, incognito: session.incognito) }
                census.live.formUnion(keys)
                census.liveSessions[(session.incognito ? "OTR/" : "") + session.id] = keys
            }
        }
        for incognito in [false, true] {
            let backups = joinPath(profile, ProfileLayout.stateRoot(incognito: incognito), ProfileLayout.backupsDirectory)
            for session in (try? fileSystem.list(backups)) ?? [] where !session.hasPrefix(".") {
                for name in (try? fileSystem.list(joinPath(backups, session))) ?? [] where !name.hasPrefix(".") {
                    let entry = joinPath(backups, session, name)
                    guard fileSystem.kind(of: entry) == .directory else { continue }
                    guard manifestVerifies(fileSystem, entry: entry) else {
                        census.unverifiedEntries.append(entry)
                        continue
                    }
                    for tabs in entryTabs(fileSystem, entry: entry, session: session, incognito: incognito) {
                        census.setAside.insert(tabs)
                    }
                }
            }
        }
        return census
    }

    /// A tab's key: side, session, id and its history's URLs and titles.
    static func key(_ tab: Tab, session: SessionID, incognito: Bool) -> String {
        let items = tab.history?.items.map { "\($0.url) \($0.title)" } ?? ["(no history)"]
        return "\(incognito ? "OTR/" : "")\(session)/\(tab.id): " + items.joined(separator: " | ")
    }

    /// The tabs of a set-aside entry, read as the session directory (or legacy session) it holds.
    private static func entryTabs(_ fileSystem: any ReadableFileSystem, entry: String, session: SessionID, incognito: Bool) -> [String] {
        let tree = ReadableTree(fileSystem: fileSystem, root: entry)
        let names = Set(tree.list(""))
        let source: SessionSource
        if names.contains(ProfileLayout.metadataFile) {
            source = SessionSource(id: session, incognito: incognito, kind: .optimizedDirectory, path: "")
        } else if names.contains(ProfileLayout.legacySessionFile) {
            source = SessionSource(id: session, incognito: incognito, kind: .legacyPlist, path: ProfileLayout.legacySessionFile)
        } else {
            return []
        }
        let input = LocatedInput(tree: tree, kind: .sessionDirectory, sessions: [source])
        guard let read = try? SessionReader(input: input).read(source, history: true) else { return [] }
        return read.tabs.map { key($0, session: session, incognito: incognito) }
    }

    /// The files a manifest.json lists, by path, with their sizes and SHA-256 digests; nil when it
    /// does not parse or a listed file lacks one of the three.
    static func listedFiles(manifest bytes: [UInt8]) -> [String: (size: Int64, sha256: String)]? {
        guard let manifest = try? JSONParser.parse(bytes, file: "manifest.json"),
            case .array(let listed)? = manifest["files"]
        else { return nil }
        var expected: [String: (size: Int64, sha256: String)] = [:]
        for file in listed {
            guard case .string(let path)? = file["path"], case .int(let size)? = file["size"],
                case .string(let sha256)? = file["sha256"]
            else { return nil }
            expected[path] = (size, sha256)
        }
        return expected
    }

    /// True when the entry's manifest.json lists exactly the entry's files, each with its size and SHA-256.
    static func manifestVerifies(_ fileSystem: any ReadableFileSystem, entry: String) -> Bool {
        guard let bytes = try? fileSystem.read(joinPath(entry, "manifest.json")),
            let expected = listedFiles(manifest: bytes)
        else { return false }
        guard let found = FileListing.files(fileSystem, under: entry, strict: true)?.filter({ $0 != "manifest.json" }),
            Set(found) == Set(expected.keys)
        else { return false }
        for path in found {
            guard let want = expected[path], let bytes = try? fileSystem.read(joinPath(entry, path)),
                Int64(bytes.count) == want.size, SHA256.hex(SHA256.hash(bytes)) == want.sha256
            else { return false }
        }
        return true
    }
}
