import FileSystemKit
import SessionFormats
import SessionModel
import SessionStore

/// What an `aside` PATH names: a profile, or one live session directory inside a profile
/// (`<profile>/[OTR/]SessionStorage/<id>` or `.../Sessions/<id>`).
public struct AsideTarget: Sendable, Equatable {
    /// The profile directory.
    public var profile: String
    /// The session, when PATH was a session directory.
    public var session: SessionID?
    /// Whether that session is incognito (false for a profile).
    public var incognito: Bool
    /// When PATH held the profile one level down (an unpacked bundle), its name there.
    public var foundInside: String?

    /// The browser family whose layout the set-aside entries follow (what the `browser` key of
    /// the aside document names).
    public var browser: String
    /// The browser of the family that wrote the profile, as its place and settings tell; nil: the
    /// family's own (what the document's `product` names then).
    public var product: BrowserProduct?

    /// The product, or the family's own browser when the family does not tell its browsers apart.
    public var productNamed: BrowserProduct {
        BrowserFamilies.product(product, ofFamily: browser, evidence: "known from the layout of its profile")
    }

    public init(profile: String, session: SessionID?, incognito: Bool, foundInside: String? = nil, browser: String) {
        self.profile = profile
        self.session = session
        self.incognito = incognito
        self.foundInside = foundInside
        self.browser = browser
    }

    /// The families whose profiles `aside` works on: every registered one.
    public static var asideBrowsers: Set<String> { Set(BrowserFamilies.names) }

    /// Works out what `path` is; throws `FormatError.unreadable` when nothing is there and
    /// `ForensicsError.notAProfile` when it is neither a profile nor a session directory in one.
    /// A profile of another browser family, whose layout the commands that change a profile do
    /// not write yet, is `ForensicsError.notSupported` naming `command`.
    /// `browsers` names the families whose profiles the command writes (every registered one by default).
    /// Unless `whileRunning`, a profile its browser is running with is `ForensicsError.browserRunning`
    /// (the family's `runningHolder`): commands that change a profile pass false.
    public static func locate(
        _ path: String, command: String = "this command", browsers: Set<String> = asideBrowsers,
        whileRunning: Bool = false, fileSystem: any FileSystem = POSIXFileSystem()
    ) throws -> AsideTarget {
        try locateReading(path, command: command, browsers: browsers, whileRunning: whileRunning, fileSystem: fileSystem).target
    }

    /// `locate`, with the input it located at the profile when it read one there (a family's
    /// profile given itself, not found inside PATH): what a dry run plans from without reading
    /// the profile again.
    public static func locateReading(
        _ path: String, command: String = "this command", browsers: Set<String> = asideBrowsers,
        whileRunning: Bool = false, fileSystem: any FileSystem = POSIXFileSystem()
    ) throws -> (target: AsideTarget, input: LocatedInput?) {
        // An empty PATH names nothing (an unset variable), never the working directory.
        guard !path.isEmpty else { throw FormatError.unreadable(path: path, reason: "an empty path names no profile") }
        // Repeated slashes and `.` components name the same place (`SessionStorage//<id>`).
        let absolute = path.hasPrefix("/")
        let parts = path.split(separator: "/").filter { $0 != "." }
        var path = (absolute ? "/" : "") + parts.joined(separator: "/")
        if path.isEmpty { path = "." }
        // The path given may itself be a symbolic link to the profile (the real directory is
        // then worked on); links inside the profile are refused where something would move.
        guard let kind = fileSystem.resolvedKind(of: path) else {
            throw FormatError.unreadable(path: path, reason: "No such file or directory")
        }
        guard kind == .directory else {
            let bundle = CompressedInput.isGzip(path)
            throw ForensicsError.notAProfile(
                path: path,
                reason: bundle
                    ? "a compressed bundle, which commands that change a profile do not write into; unpack it with sessionctl decompress \(path) -o DIR, then run this on DIR"
                    : "not a directory (commands that change a profile take the profile directory)")
        }
        // Read once: a dry run plans from this input and predicts what remains from the same bytes.
        if let input = try? InputOpener.open(path, fileSystem: ReadOnceFileSystem(fileSystem)) {
            let family = BrowserFamilies.family(of: input)
            guard browsers.contains(family.name) else {
                throw ForensicsError.notSupported(path: path, command: command, browser: family.displayName)
            }
            // A family whose layout places the path (a session directory in a profile) says where.
            if let place = family.place(of: path, fileSystem: fileSystem) {
                return (AsideTarget(place, browser: family.name), nil)
            }
            // Otherwise the profile is worked on whole, at the directory its sessions are relative to.
            guard input.kind == .profile else {
                throw ForensicsError.notAProfile(path: path, reason: "not a profile directory of \(family.displayName)")
            }
            let inside = input.profileFoundInside
            let profile = inside.map { joinPath(path, $0) } ?? path
            if !whileRunning, let holder = family.runningHolder(profile: profile) {
                throw ForensicsError.browserRunning(
                    path: profile, browser: family.displayName, lock: lastPathComponent(holder.path), pid: holder.pid)
            }
            var target = AsideTarget(profile: profile, session: nil, incognito: false, foundInside: inside, browser: family.name)
            target.product = family.product(of: input)
            return (target, inside == nil ? input : nil)
        }
        // No session located: a profile that holds none yet, as a family lays its profiles out.
        for family in BrowserFamilies.all where browsers.contains(family.name) {
            if let place = family.place(of: path, fileSystem: fileSystem) { return (AsideTarget(place, browser: family.name), nil) }
        }
        throw ForensicsError.notAProfile(
            path: path,
            reason: "no profile of a browser sessionctl reads is in it (\(BrowserFamilies.all.map(\.displayName).joined(separator: ", ")))")
    }

    /// The target `place` names, in a profile of the family `browser`.
    init(_ place: ProfilePlace, browser: String) {
        self.init(
            profile: place.profile, session: place.session, incognito: place.incognito, foundInside: place.foundInside, browser: browser)
    }
}
