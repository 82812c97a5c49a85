import SessionForensics
import SessionFormats
import SessionModel

extension MigrationTarget {
    /// Chrome for iOS's optimized format (`SessionStorage/`).
    public static let optimized = MigrationTarget(
        rawValue: "optimized", format: .optimized, browser: ChromeIOSFamily().name, setAside: "the old sessions")
    /// Chrome for iOS's legacy format (`Sessions/<id>/session.plist`).
    public static let legacy = MigrationTarget(
        rawValue: "legacy", format: .legacy, browser: ChromeIOSFamily().name, setAside: "the old sessions")
}

/// `migrate --to optimized` or `--to legacy`: a Chrome for iOS profile converted by `Migrator`.
public struct ChromeIOSMigration: ProfileMigration {
    public let target: MigrationTarget

    public init(to target: MigrationTarget) { self.target = target }

    public func run(_ path: String, toolVersion: String, dryRun: Bool, environment: MigrationEnvironment) throws -> MigrationRun {
        let located = try AsideTarget.locate(
            path, command: "migrate", browsers: [ChromeIOSFamily().name], fileSystem: environment.writer.fileSystem)
        guard located.session == nil else {
            throw ForensicsError.notWholeProfile(path: path, command: "migrate")
        }
        let (plan, outcome) = try Migrator(
            profile: located.profile, writer: environment.writer, toolVersion: toolVersion, clock: environment.clock,
            newGroupID: environment.newGroupID ?? FormatConversion.randomGroupID
        ).run(to: target, dryRun: dryRun)
        return MigrationRun(foundInside: located.foundInside, plan: plan, outcome: outcome)
    }
}
