import FileSystemKit
import SessionForensics
import SessionFormats
import SessionModel
import SessionStore

extension MigrationTarget {
    /// Firefox for iOS's window files, from its legacy tab archive (`FirefoxMigrator`).
    public static let windowData = MigrationTarget(
        rawValue: "window-data", format: .windowData, browser: FirefoxIOSFamily().name, kept: "the archive stays; ",
        setAside: "a window file it replaces")
}

/// `migrate --to window-data`: a Firefox for iOS profile's legacy archive converted to a window
/// file by `FirefoxMigrator`.
public struct FirefoxIOSMigration: ProfileMigration {
    public var target: MigrationTarget { .windowData }

    public init() {}

    /// Refuses another family's profile by name, saying which formats migrate gives it.
    public func run(_ path: String, toolVersion: String, dryRun: Bool, environment: MigrationEnvironment) throws -> MigrationRun {
        let firefox = FirefoxIOSFamily()
        let fileSystem = environment.writer.fileSystem
        if let input = try? InputOpener.open(path, fileSystem: fileSystem), input.browser != firefox.name {
            let other = BrowserFamilies.family(of: input)
            let targets = ProfileMigrations.all.filter { $0.target.browser == other.name }.map { $0.target.rawValue }
            let formats = targets.isEmpty ? "migrate converts none of them" : "its formats: --to \(targets.joined(separator: " or "))"
            throw FormatError.notASession(
                path: path, reason: "\(target) is \(firefox.displayName)'s format, and this is a \(other.displayName) profile (\(formats))")
        }
        let located = try AsideTarget.locate(path, command: "migrate", browsers: [firefox.name], fileSystem: fileSystem)
        let (plan, outcome) = try FirefoxMigrator(profile: located.profile, writer: environment.writer, toolVersion: toolVersion).run(
            dryRun: dryRun)
        return MigrationRun(foundInside: located.foundInside, plan: plan, outcome: outcome)
    }
}
