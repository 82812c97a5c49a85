import SessionFormats
import SessionModel

/// How a family writes the sessions of a document into a profile of its own (`sessionctl
/// import`), offered by its rulebook (`BrowserRulebook.sessionImport`).
public protocol SessionImport: Sendable {
    /// The family whose profile the import writes.
    var family: any BrowserFamily { get }
    /// Writes `sessions` into the profile of `aside` (created when missing), under its lock; with
    /// `replace`, a session already there is set aside first, else the import stops
    /// (`FileSystemError.exists`) before anything is written.
    func run(_ sessions: [Session], aside: Aside, replace: Bool) throws -> ImportOutcome
}

/// What an import did.
public struct ImportOutcome: Sendable {
    /// The set-aside entries made for the sessions replaced (with `replace` only).
    public var setAside: [AsideEntry]
    /// The session files or directories written, relative to the profile.
    public var written: [String]

    public init(setAside: [AsideEntry], written: [String]) {
        self.setAside = setAside
        self.written = written
    }
}

/// The imports the registered rulebooks offer.
public enum SessionImports {
    /// Every registered family's import, in registration order.
    public static var all: [any SessionImport] { BrowserRulebooks.all.compactMap(\.sessionImport) }

    /// The import that writes a profile at `path`: the first registered family's that writes
    /// imports; `.notSupported` when none does.
    public static func writing(_ path: String) throws(ForensicsError) -> any SessionImport {
        guard let first = all.first else { throw .notSupported(path: path, command: "import", browser: "any registered browser") }
        return first
    }
}
