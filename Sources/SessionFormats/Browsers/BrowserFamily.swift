import FileSystemKit
import SessionModel

/// A family of browsers that keep sessions in one set of formats, behind the one interface every
/// command reads through: recognise an input by its content and layout, and read it tolerantly
/// into the shared model in one walk.
///
/// What the family's browser does on load with each problem and what repair writes for it are
/// the family's rulebook (`BrowserRulebook` in SessionForensics), registered beside it.
public protocol BrowserFamily: Sendable {
    /// The stable name that JSON documents carry and `--browser` takes (`chrome-ios`).
    var name: String { get }
    /// The name shown to people ("Chrome for iOS").
    var displayName: String { get }
    /// The browser's own short name, which labels what it does with each finding (`chrome`).
    var shortName: String { get }

    /// Locates the sessions of `tree` (its root the input directory, or with `file` the
    /// directory holding the input file), recognised by content and layout; nil when the input is
    /// not this family's. Throws `.notASession` naming what the input is when it is recognisably
    /// something else that no family reads.
    func locate(tree: ReadableTree, file: String?, ancestry: [String]) throws(FormatError) -> LocatedInput?

    /// Reads a located input of this family in one walk, as deep as `depth` (Chrome's own set-aside
    /// sessions too, with `backups`).
    func read(_ input: LocatedInput, depth: ReadDepth, backups: Bool) -> InputRead

    /// The browser's hold on the profile directory `profile` when it is running with it (then
    /// nothing rewrites the profile's session files: the browser writes its own over them); nil
    /// when it is not, or when the family's browser leaves no such mark.
    func runningHolder(profile: String) -> BrowserProfileLock.Holder?
    /// The browser of the family that wrote the input `read` holds, and what says so.
    func product(of read: InputRead) -> BrowserProduct
    /// The browser of the family that wrote the located `input`, from what locating it saw (its
    /// place, its settings) without reading its sessions: for commands that do not read them.
    func product(of input: LocatedInput) -> BrowserProduct
    /// Whether the directory at the root of `tree` is a profile of this family, as a read that
    /// waits for a writer recognises the profile it belongs to (`SettledRead`).
    func isProfileDirectory(_ tree: ReadableTree) -> Bool
    /// The directories of a profile (relative to it, "" for the profile itself) whose entries
    /// change when a command adds, removes or swaps a session: a read is taken only when none of
    /// them changed while it ran.
    var watchedDirectories: [String] { get }
    /// The formats of the session files this family reads itself (`SessionSource.Kind.file`);
    /// none for Chrome for iOS, whose session directories and files `InputRead` reads.
    var fileFormats: [SessionFormat] { get }
    /// Every format of the family's sessions (its `fileFormats` unless it says otherwise).
    var formats: [SessionFormat] { get }
    /// How its tabs are shown as text.
    var tabPresentation: TabPresentation { get }
    /// Reads and decodes the session file of `source`, of one of `fileFormats`, as deep as `depth`.
    func readFile(_ source: SessionSource, tree: ReadableTree, depth: ReadDepth) -> any BrowserSessionFile

    /// What `aside push` sets aside of the located profile `input`: every live session of the
    /// kind (`incognito`), or the one `session` (none when it is not there), one entry each.
    func setAsideUnits(_ input: LocatedInput, session: SessionID?, incognito: Bool) throws(FileSystemError) -> [SetAsideUnit]
    /// The top-level names in a profile under which this family's session files lie (empty for a
    /// family whose sessions are directories, moved whole): an entry holding one of them is
    /// restored file by file.
    var setAsideRoots: Set<String> { get }
    /// `document` (a JSON session document of the family's, decompressed from its container)
    /// redacted for sharing as `--redact` redacts; nil when it is no document of the family's.
    func redactedSessionDocument(_ document: JSONValue) -> JSONValue?
    /// The directories (relative to the input's root) into which a rewrite of the located
    /// profile `input` writes its session files: where repair sweeps what an interrupted write
    /// left (temporary names the browser never reads) before anything else.
    func sweptDirectories(_ input: LocatedInput) -> [String]
    /// Of `files` (relative to the profile), those the browser loads first: a push removes them
    /// last, and `aside restore` names the first as where the entry went back.
    func loadedFirst(of files: [String]) -> [String]
    /// Whether a file of this name is the family's whatever it holds (a name no other family's
    /// files take): such a file given alone is offered to the family before any other.
    func claimsFileName(_ name: String) -> Bool
    /// Where the directory `path` lies in a profile of the family by its layout alone, whether or
    /// not it holds a session yet (a profile holding only set-aside entries, one session's
    /// directory, a profile one level down): what commands that change a profile work on. Nil
    /// when nothing around it is laid out as the family's profiles are.
    func place(of path: String, fileSystem: any FileSystem) -> ProfilePlace?
    /// Names of the directories inside a profile that hold nothing but the family's session
    /// state: a path inside one is changed through the profile above it (`RepairTarget`).
    var sessionStateDirectories: [String] { get }
    /// What the browser calls the backups it keeps of its own sessions, which a located input
    /// lists (`LocatedInput.chromeBackups`) and a report counts; nil when it keeps none.
    var ownBackupsName: String? { get }
    /// The key an earlier version of the JSON documents gave a finding's outcome under, which
    /// they still carry before `outcome` for the family's inputs; nil when there was none.
    var earlierOutcomeKey: String? { get }
    /// Where sessionctl's commands stage what they put together in the family's profiles.
    var stagingLayout: StagingLayout { get }
}

extension BrowserFamily {
    /// One browser per family unless the family says otherwise: the family's own, by its format.
    public func product(of read: InputRead) -> BrowserProduct { familyProduct }
    /// None: the family keeps no JSON session documents.
    public func redactedSessionDocument(_ document: JSONValue) -> JSONValue? { nil }
    /// None: a family whose sessions are directories settles them itself.
    public func sweptDirectories(_ input: LocatedInput) -> [String] { [] }
    /// No name: the family's files are recognised in registration order.
    public func claimsFileName(_ name: String) -> Bool { false }
    /// None: the family's profiles are known by the sessions located in them.
    public func place(of path: String, fileSystem: any FileSystem) -> ProfilePlace? { nil }
    /// None: a path inside the family's profile is located by the profile it belongs to.
    public var sessionStateDirectories: [String] { [] }
    /// None: the browser keeps no backups of its own sessions that a read lists.
    public var ownBackupsName: String? { nil }
    /// None: the family's findings were always given their outcome under `outcome` alone.
    public var earlierOutcomeKey: String? { nil }
    /// Nothing: no command stages anything in the family's profiles.
    public var stagingLayout: StagingLayout { .none }

    /// The family's own browser, as `product(of:)` of a read says.
    public func product(of input: LocatedInput) -> BrowserProduct { familyProduct }

    /// The family's browser, known by the format of its sessions.
    public var familyProduct: BrowserProduct {
        BrowserProduct(name: shortName, displayName: displayName, evidence: "known from the format of its sessions")
    }
    public func runningHolder(profile: String) -> BrowserProfileLock.Holder? { nil }
    public var fileFormats: [SessionFormat] { [] }
    public var formats: [SessionFormat] { fileFormats }
    public func readFile(_ source: SessionSource, tree: ReadableTree, depth: ReadDepth) -> any BrowserSessionFile {
        UnreadSessionFile(reason: "\(displayName) reads no session file of format \(source.format.rawValue)")
    }
}
