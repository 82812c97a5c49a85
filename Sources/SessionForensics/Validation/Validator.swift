import SessionFormats
import SessionModel

/// Checks a located input against everything chrome-ios-format.md says Chrome does, and predicts
/// per finding what Chrome would do on its next launch.
///
/// It reads each file at most once, never writes, and never throws: whatever is damaged, however
/// badly, becomes a finding (with the offset of the first bad byte where there is one).
public struct Validator: Sendable {
    public init() {}

    /// Validates every session of `input`, the legacy sessions shadowed by `SessionStorage/`, and
    /// (for a profile) Chrome's own set-aside sessions.
    public func validate(_ input: LocatedInput) -> ValidationReport {
        var findings: [Finding] = []
        var tabs = 0
        for source in input.sessions {
            let result: SessionResult
            switch source.kind {
            case .optimizedDirectory: result = validateOptimized(source, in: input)
            case .tabDataFile: result = validateTabDataFile(source, in: input)
            case .legacyPlist: result = validateLegacy(source, in: input)
            }
            findings += ValidationReport.ordered(result.findings)
            tabs += result.tabs
        }
        findings += mixedFormats(input)
        findings += backups(input)
        return ValidationReport(findings: findings, sessions: input.sessions.count, tabs: tabs)
    }

    /// What validating one session found, and how many tabs it lists.
    struct SessionResult {
        var findings: [Finding] = []
        var tabs = 0
    }

    /// `mixed-formats`: legacy sessions that Chrome ignores because `SessionStorage/` exists beside them.
    func mixedFormats(_ input: LocatedInput) -> [Finding] {
        let loaded = Set(input.sessions.map { "\($0.incognito)/\($0.id)" })
        return input.shadowedLegacySessions.map { source in
            let scope = FindingScope(session: source.id, incognito: source.incognito, file: source.path)
            let storage = treePath(ProfileLayout.stateRoot(incognito: source.incognito), ProfileLayout.optimizedDirectory)
            let counterpart = loaded.contains("\(source.incognito)/\(source.id)")
                ? "its tabs are read from \(storage)/\(source.id) instead"
                : "\(storage)/ has no session \(source.id), so this window comes up empty"
            return scope.finding(.mixedFormats,
                                 "\(source.path) is ignored because \(storage)/ exists (a migration leftover); \(counterpart)")
        }
    }

    /// `backup-present`: `Backups/<id>/session.backup.plist` left by Chrome's legacy crash helper.
    func backups(_ input: LocatedInput) -> [Finding] {
        input.chromeBackups.map { source in
            FindingScope(session: source.id, incognito: source.incognito, file: source.path).finding(
                .backupPresent, "session \(source.id) was set aside by Chrome's legacy crash helper and is not loaded; `sessionctl aside list` shows it")
        }
    }
}
