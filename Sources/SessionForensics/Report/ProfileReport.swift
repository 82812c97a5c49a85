import Archive
import FileSystemKit
import SessionFormats
import SessionModel
import SessionStore

/// Everything a report shows of one input, gathered by reading only: the windows read (with
/// histories when asked), the ones that could not be, what validate finds, the set-aside entries
/// with the state of their manifests, and Chrome's own crash backups.
public struct ProfileReport: Sendable {
    /// A set-aside entry (`[OTR/]Backups/<id>/<stamp>/`) and whether its manifest verifies.
    public struct Entry: Sendable {
        public var path: String
        public var session: String
        public var incognito: Bool
        public var reason: String
        public var time: Timestamp
        public var files: Int
        /// Nil when every file is there with its size and SHA-256; else what is wrong.
        public var problem: String?
    }

    /// One of Chrome's crash backups (`Backups/<id>/session.backup.plist`).
    public struct ChromeBackup: Sendable {
        public var path: String
        public var tabs: Int?
        public var problem: String?
    }

    /// The input as given.
    public var input: String
    /// Whether the input is a gzip file or bundle (or a member of one): commands that change a
    /// profile need it unpacked first.
    public var bundle = false
    public var history: Bool
    public var redacted: Bool
    public var sessions: [Session]
    public var errors: [ReadError]
    public var validation: ValidationReport
    public var entries: [Entry]
    public var chromeBackups: [ChromeBackup]
    /// What the input's browser calls the backups it keeps of its own sessions (its family's
    /// `ownBackupsName`); nil for a browser that keeps none, whose report has no such row.
    public var ownBackupsName: String?

    public init(
        input: String, history: Bool, redacted: Bool, sessions: [Session], errors: [ReadError],
        validation: ValidationReport, entries: [Entry], chromeBackups: [ChromeBackup]
    ) {
        self.input = input
        self.history = history
        self.redacted = redacted
        self.sessions = sessions
        self.errors = errors
        self.validation = validation
        self.entries = entries
        self.chromeBackups = chromeBackups
    }

    /// Reads `located` (opened from `input`): sessions (histories with `history`, redacted with
    /// `redact`), validation, set-aside entries and Chrome's backups.
    public static func gather(_ located: LocatedInput, input: String, history: Bool, redact: Bool) -> ProfileReport {
        // One read serves validation, the sessions and their histories, and Chrome's backups.
        let rulebook = BrowserRulebooks.rulebook(for: located)
        let read = rulebook.family.read(located, depth: .tabs, backups: true)
        let reader = SessionReader(input: located)
        var validation = rulebook.validate(read)
        let (readSessions, failures) = reader.sessions(of: read, history: history)
        var sessions = readSessions
        let errors = failures.map {
            ReadError(session: $0.source.id, incognito: $0.source.incognito, error: $0.error, input: input, browser: located.browser)
        }
        if redact { sessions = sessions.map(Redactor.redact) }
        let backups = read.backups.map { backup -> ChromeBackup in
            do throws(FormatError) {
                return ChromeBackup(
                    path: reader.displayPath(backup.source.path), tabs: try reader.session(backup, history: false).tabs.count, problem: nil)
            } catch {
                return ChromeBackup(path: reader.displayPath(backup.source.path), tabs: nil, problem: error.description)
            }
        }
        let entries = located.kind == .profile ? setAsideEntries(located.tree) : []
        if redact {
            // A finding's message may quote a title or a URL: redacted, it says what its rule means.
            validation.findings = validation.findings.map { finding in
                var finding = finding
                finding.message = finding.rule.summary
                return finding
            }
        }
        var report = ProfileReport(
            input: input, history: history, redacted: redact, sessions: sessions, errors: errors,
            validation: validation, entries: entries, chromeBackups: backups)
        report.ownBackupsName = rulebook.family.ownBackupsName
        report.bundle = located.isBundle
        return report
    }

    /// The set-aside entries of a profile tree, oldest first, each with its manifest checked.
    static func setAsideEntries(_ tree: ReadableTree) -> [Entry] {
        var entries: [Entry] = []
        for incognito in [false, true] {
            let backups = SessionSetAside.backupsDirectory(incognito: incognito)
            for session in tree.list(backups).sorted() where tree.kind(of: joinPath(backups, session)) == .directory {
                for stamp in tree.list(joinPath(backups, session)).sorted() where AsideStamp.parse(stamp) != nil {
                    let path = joinPath(backups, session, stamp)
                    let manifestPath = joinPath(path, AsideManifest.fileName)
                    guard tree.kind(of: manifestPath) == .file else { continue }
                    guard let bytes = try? tree.read(manifestPath), let manifest = AsideManifest.decode(bytes) else {
                        entries.append(
                            Entry(
                                path: path, session: session, incognito: incognito, reason: "", time: .null, files: 0,
                                problem: "manifest.json cannot be read"))
                        continue
                    }
                    entries.append(
                        Entry(
                            path: path, session: manifest.session, incognito: manifest.incognito, reason: manifest.reason,
                            time: manifest.time, files: manifest.files.count, problem: verify(manifest, at: path, in: tree)))
                }
            }
        }
        return entries.sorted { $0.time < $1.time }
    }

    /// What is wrong with an entry's files against its manifest, or nil.
    private static func verify(_ manifest: AsideManifest, at path: String, in tree: ReadableTree) -> String? {
        var missing = 0
        var differing = 0
        for file in manifest.files {
            // A manifest names files inside its entry, never outside it.
            guard !file.path.hasPrefix("/"), !pathComponents(file.path).contains("..") else {
                missing += 1
                continue
            }
            guard let bytes = try? tree.read(joinPath(path, file.path)) else {
                missing += 1
                continue
            }
            if Int64(bytes.count) != file.size || SHA256.hex(SHA256.hash(bytes)) != file.sha256 { differing += 1 }
        }
        guard missing + differing > 0 else { return nil }
        return [
            missing > 0 ? "\(missing) file\(missing == 1 ? "" : "s") missing" : nil,
            differing > 0 ? "\(differing) file\(differing == 1 ? "" : "s") changed" : nil
        ].compactMap { $0 }.joined(separator: ", ")
    }
}
