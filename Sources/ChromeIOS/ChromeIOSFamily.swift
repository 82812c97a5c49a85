import FileSystemKit
import SessionFormats
import SessionModel

/// Chrome for iOS: `SessionStorage/` (session_metadata.pb and a directory per tab) and the legacy
/// `Sessions/<id>/session.plist`, each with an incognito side under `OTR/`
/// (docs/chrome-ios-format.md).
public struct ChromeIOSFamily: BrowserFamily {
    public init() {}

    public var name: String { "chrome-ios" }
    public var displayName: String { "Chrome for iOS" }
    public var shortName: String { "chrome" }

    /// A directory holding one of the state directories Chrome keeps (`SessionStorage`,
    /// `Sessions`, `OTR`, `Backups`), other than `OTR/` itself.
    public func isProfileDirectory(_ tree: ReadableTree) -> Bool {
        InputLocator.isProfile(Set(tree.list(""))) && lastPathComponent(tree.displayName) != ProfileLayout.incognitoDirectory
    }
    /// `OTR/` and the storage directories of both kinds.
    public var watchedDirectories: [String] {
        [ProfileLayout.incognitoDirectory]
            + ["", ProfileLayout.incognitoDirectory].flatMap { base in
                [ProfileLayout.optimizedDirectory, ProfileLayout.legacyDirectory].map { joinPath(base, $0) }
            }
    }
    /// `chrome`: the documents gave Chrome for iOS's findings their outcome under it first.
    public var earlierOutcomeKey: String? { "chrome" }
    /// Its own crash backups, `Backups/<id>/session.backup.plist`.
    public var ownBackupsName: String? { "Chrome's crash backups" }
    /// Session directories (`SessionStorage/`) and legacy `session.plist` files.
    public var formats: [SessionFormat] { [.optimized, .legacy] }
    /// Tabs by `#id`; incognito is a whole session; a tab's history is its data.pb.
    public var tabPresentation: TabPresentation {
        TabPresentation(namedByStableIdentifier: false, marksPrivateTabs: false, marksSalvagedTabs: false, historyFile: "data.pb")
    }

    /// `InputLocator` recognises Chrome for iOS's layout and files; what it does not recognise
    /// it names (a desktop profile, a Firefox file) or refuses.
    public func locate(tree: ReadableTree, file: String?, ancestry: [String]) throws(FormatError) -> LocatedInput? {
        // Another family's profile is not Chrome's for the Backups/ a repair sets its files aside in.
        if file == nil,
            ![ProfileLayout.optimizedDirectory, ProfileLayout.legacyDirectory, ProfileLayout.incognitoDirectory].contains(where: {
                tree.kind(of: $0) == .directory
            }),
            BrowserFamilies.all.contains(where: { $0.name != name && $0.isProfileDirectory(tree) })
        {
            return nil
        }
        var located = try InputLocator.locate(tree: tree, file: file, ancestry: ancestry)
        located.family = self
        return located
    }

    public func read(_ input: LocatedInput, depth: ReadDepth, backups: Bool) -> InputRead {
        InputRead(input, depth: depth, backups: backups)
    }
}
