import FileSystemKit
import SessionModel

/// The family of an input no registered family recognised: what a `LocatedInput` made outside
/// `BrowserFamilies.locate` carries until a family claims it. It recognises nothing and reads
/// its sessions as the shared reader does.
public struct UnrecognisedFamily: BrowserFamily {
    public init() {}

    public var name: String { "unrecognised" }
    public var displayName: String { "no browser sessionctl reads" }
    public var shortName: String { "browser" }
    public var tabPresentation: TabPresentation {
        TabPresentation(namedByStableIdentifier: false, marksPrivateTabs: false, marksSalvagedTabs: false, historyFile: "history file")
    }
    public var watchedDirectories: [String] { [""] }
    public var setAsideRoots: Set<String> { [] }

    public func locate(tree: ReadableTree, file: String?, ancestry: [String]) throws(FormatError) -> LocatedInput? { nil }
    public func read(_ input: LocatedInput, depth: ReadDepth, backups: Bool) -> InputRead { InputRead(input, depth: depth) }
    public func runningHolder(profile: String) -> BrowserProfileLock.Holder? { nil }
    public func isProfileDirectory(_ tree: ReadableTree) -> Bool { false }
    public func setAsideUnits(_ input: LocatedInput, session: SessionID?, incognito: Bool) throws(FileSystemError) -> [SetAsideUnit] { [] }
    public func loadedFirst(of files: [String]) -> [String] { files }
}
