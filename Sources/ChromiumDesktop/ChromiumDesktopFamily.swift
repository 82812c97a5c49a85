import Archive
import FileSystemKit
import SessionFormats
import SessionModel

/// Chromium desktop (Chrome, Edge, Brave, Vivaldi): a profile's `Sessions/Session_<time>` and
/// `Sessions/Tabs_<time>` command logs (SNSS), the legacy `Current Session` and its kin at the
/// profile root, read with the profile's `Preferences` (docs/chromium-desktop-format.md).
public struct ChromiumDesktopFamily: BrowserFamily {
    public init() {}

    public var name: String { "chromium-desktop" }
    public var displayName: String { "Chromium desktop" }

    /// Session files (`Session_`, `Tabs_`, `Apps_` and the legacy names), read with `SNSSFileRead`.
    public var fileFormats: [SessionFormat] { [.snss] }
    /// The profile (its legacy session files) and `Sessions/`, where a rewrite writes its `Session_` file.
    public func sweptDirectories(_ input: LocatedInput) -> [String] {
        guard input.kind == .profile else { return [] }
        return ["", ChromiumDesktopLayout.sessionsDirectory]
    }

    /// Tabs by their id in the file where they have one, each private or not, salvaged ones marked; histories are in the session file.
    public var tabPresentation: TabPresentation {
        TabPresentation(namedByStableIdentifier: true, marksPrivateTabs: true, marksSalvagedTabs: true, historyFile: "session file")
    }

    public func readFile(_ source: SessionSource, tree: ReadableTree, depth: ReadDepth) -> any BrowserSessionFile {
        SNSSFileRead.read(source, tree: tree)
    }
    public var shortName: String { "chrome" }

    /// A directory whose `Sessions/` holds a session file, or with a legacy session file beside
    /// `Preferences` (a `Current Session` alone makes no profile a writer locks).
    public func isProfileDirectory(_ tree: ReadableTree) -> Bool {
        guard Self.isProfile(tree: tree, "") else { return false }
        return tree.kind(of: ChromiumDesktopLayout.sessionsDirectory) == .directory
            || tree.kind(of: ChromiumDesktopLayout.preferencesFile) == .file
    }
    /// The profile itself (its legacy session files) and `Sessions/`.
    public var watchedDirectories: [String] { ["", ChromiumDesktopLayout.sessionsDirectory] }

    /// Recognises a profile directory (`Sessions/` holding a session file, or a legacy name at
    /// its root), the `Sessions/` directory itself, a user-data directory holding one such
    /// profile one level down, or one session file: by its name or by the `SNSS` signature.
    public func locate(tree: ReadableTree, file: String?, ancestry: [String]) throws(FormatError) -> LocatedInput? {
        if let file {
            let base = lastPathComponent(file)
            if ChromiumDesktopLayout.type(ofName: base) == nil {
                guard SNSSFile.hasSignature(try tree.read(file).prefix(4)) else { return nil }
            }
            var located = LocatedInput(
                tree: tree, kind: .file, sessions: [SessionSource(id: base, incognito: false, kind: .file(.snss), path: file)])
            located.family = self
            located.chromiumProduct = ChromiumProduct.fromPlace(ancestry).map {
                ($0, "known from its place (\(ancestry.suffix(4).joined(separator: "/")))")
            }
            return located
        }
        guard var located = locateDirectory(tree: tree, ancestry: ancestry) else { return nil }
        located.family = self
        if located.chromiumProduct == nil, let product = located.chromiumDesktop?.product {
            located.chromiumProduct = (product, "known from its Preferences")
        } else if located.chromiumProduct == nil, let product = ChromiumProduct.fromPlace(ancestry) {
            located.chromiumProduct = (product, "known from its place (\(ancestry.suffix(4).joined(separator: "/")))")
        }
        return located
    }

    /// The product the profile's place or preferences name; else the one its session files'
    /// records show (ids only that product writes); else Chromium's, said to be not known.
    public func product(of read: InputRead) -> BrowserProduct {
        if read.input.chromiumProduct != nil { return product(of: read.input) }
        if let product = read.sessions.lazy.compactMap({ $0.snss?.decoded?.product }).first {
            return BrowserProduct(
                name: product.rawValue, displayName: product.displayName, evidence: "known from the ids of its session records")
        }
        return BrowserProduct(
            name: ChromiumProduct.chromium.rawValue, displayName: "a Chromium browser",
            evidence: "which one is not known: nothing in the input names it, and it is read as Chromium reads it")
    }

    /// The product the profile's place or preferences name; else Chromium's, said to be not known
    /// from them (the records, which may tell, are not read here).
    public func product(of input: LocatedInput) -> BrowserProduct {
        if let (product, evidence) = input.chromiumProduct {
            return BrowserProduct(name: product.rawValue, displayName: product.displayName, evidence: evidence)
        }
        return BrowserProduct(
            name: ChromiumProduct.chromium.rawValue, displayName: "a Chromium browser",
            evidence: "which one is not known from its place or its Preferences")
    }

    public func read(_ input: LocatedInput, depth: ReadDepth, backups: Bool) -> InputRead {
        InputRead(input, depth: depth)
    }

    /// Chromium's `SingletonLock` naming this host and a live process.
    public func runningHolder(profile: String) -> BrowserProfileLock.Holder? {
        // The lock is in the user-data directory, the profile's parent.
        BrowserProfileLock.chromiumHolder(userData: parentPath(profile)) ?? BrowserProfileLock.chromiumHolder(userData: profile)
    }

    private func locateDirectory(tree: ReadableTree, ancestry: [String]) -> LocatedInput? {
        if Self.isProfile(tree: tree, "") {
            var located = LocatedInput(tree: tree, kind: .profile, sessions: Self.sessionFiles(tree: tree, profile: ""))
            located.chromiumDesktop = ChromiumDesktopSettings.read(tree: tree, profile: "")
            return located
        }
        let names = tree.list("")
        if ancestry.last == ChromiumDesktopLayout.sessionsDirectory || names.contains(where: { ChromiumDesktopLayout.parse($0) != nil }) {
            let sessions = names.sorted().filter { ChromiumDesktopLayout.parse($0) != nil && tree.kind(of: $0) == .file }.map {
                SessionSource(id: joinPath(ChromiumDesktopLayout.sessionsDirectory, $0), incognito: false, kind: .file(.snss), path: $0)
            }
            guard !sessions.isEmpty else { return nil }
            return LocatedInput(tree: tree, kind: .storageDirectory, sessions: sessions)
        }
        let inside = names.sorted().filter { tree.kind(of: $0) == .directory && Self.isProfile(tree: tree, $0) }
        if inside.count == 1, let child = inside.first,
            var located = locateDirectory(tree: tree.subtree(child), ancestry: ancestry + [child])
        {
            located.profileFoundInside = child
            // A user-data directory: its Local State may name the product.
            if located.chromiumDesktop?.product == nil, let bytes = try? tree.read("Local State"),
                let value = try? JSONParser.parse(bytes, file: "Local State", maxDepth: JSONParser.chromiumDepth),
                let product = ChromiumProduct.fromPreferences(value)
            {
                located.chromiumProduct = (product, "known from its user-data directory's Local State")
            }
            return located
        }
        return nil
    }

    /// Whether the directory at `path` is a Chromium desktop profile: its `Sessions/` holds a
    /// file named as Chrome names session files, or a legacy name is at its root.
    ///
    /// Chrome for iOS keeps its recently closed tabs in a `Tabs_` file of its own `Sessions/`
    /// (the tab restore service's): `Tabs_` files alone beside its windows (`SessionStorage/`, or
    /// session directories in `Sessions/`) make no desktop profile.
    static func isProfile(tree: ReadableTree, _ path: String) -> Bool {
        let sessions = joinPath(path, ChromiumDesktopLayout.sessionsDirectory)
        let names = tree.list(sessions)
        let types = names.compactMap { ChromiumDesktopLayout.parse($0)?.type }
        if !types.isEmpty {
            let iOSClosedTabs =
                types.allSatisfy { $0 == .tabs }
                && (tree.kind(of: joinPath(path, "SessionStorage")) == .directory
                    || names.contains { tree.kind(of: joinPath(sessions, $0)) == .directory })
            if !iOSClosedTabs { return true }
        }
        return ChromiumDesktopLayout.legacyNames.keys.contains { tree.kind(of: joinPath(path, $0)) == .file }
    }

    /// The session files of the profile at `profile`: `Sessions/` by name, then the legacy names.
    static func sessionFiles(tree: ReadableTree, profile: String) -> [SessionSource] {
        let sessions = joinPath(profile, ChromiumDesktopLayout.sessionsDirectory)
        var paths = tree.list(sessions).sorted().filter { name in
            ChromiumDesktopLayout.parse(name) != nil && tree.kind(of: joinPath(sessions, name)) == .file
        }.map { joinPath(ChromiumDesktopLayout.sessionsDirectory, $0) }
        paths += ChromiumDesktopLayout.legacyNames.keys.sorted().filter { tree.kind(of: joinPath(profile, $0)) == .file }
        return paths.map { SessionSource(id: $0, incognito: false, kind: .file(.snss), path: joinPath(profile, $0)) }
    }
}
