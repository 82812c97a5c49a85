import FileSystemKit
import SessionModel
import Synchronization

/// The browser families sessionctl reads, in the order recognition tries them: those a program
/// registered at its start (the `BrowserRegistry` target lists every browser's module; shared
/// code names none).
public enum BrowserFamilies {
    private static let registered = Mutex<[any BrowserFamily]>([])

    /// Every registered family, in the order they were registered.
    public static var all: [any BrowserFamily] { registered.withLock { $0 } }

    /// Registers `families`, in order, each once (by name): what a program does before it reads.
    public static func register(_ families: [any BrowserFamily]) {
        registered.withLock { list in
            for family in families where !list.contains(where: { $0.name == family.name }) { list.append(family) }
        }
    }

    /// Their names, as `--browser` takes them.
    public static var names: [String] { all.map(\.name) }

    /// Every format a registered family reads.
    public static var formats: [SessionFormat] { all.flatMap(\.formats) }

    /// The family named `name`.
    public static func named(_ name: String) -> (any BrowserFamily)? {
        all.first { $0.name == name }
    }

    /// Reads the session file of `source` with the family whose format it is.
    static func readFile(_ source: SessionSource, format: SessionFormat, tree: ReadableTree, depth: ReadDepth) -> any BrowserSessionFile {
        guard let family = all.first(where: { $0.fileFormats.contains(format) }) else {
            return UnreadSessionFile(reason: "no browser family reads session files of format \(format.rawValue)")
        }
        return family.readFile(source, tree: tree, depth: depth)
    }

    /// The browser a document names for an input of the family `browser`: `product` when the
    /// input told it, else the family's own; for a name no family registered, that name, known
    /// by `evidence`.
    public static func product(_ product: BrowserProduct?, ofFamily browser: String, evidence: String) -> BrowserProduct {
        product ?? named(browser)?.familyProduct ?? BrowserProduct(name: browser, displayName: browser, evidence: evidence)
    }

    /// The family that located `input`.
    public static func family(of input: LocatedInput) -> any BrowserFamily { input.family }

    /// Locates the sessions of an input: by `browser` alone when given (a user who knows
    /// better), else by the first family that recognises it (for a file, a family that claims
    /// its name first). Throws `.notASession` when none does.
    public static func locate(
        tree: ReadableTree, file: String? = nil, ancestry: [String], browser: (any BrowserFamily)? = nil
    ) throws(FormatError) -> LocatedInput {
        let path = file.map { joinPath(tree.displayName, $0) } ?? tree.displayName
        if let browser {
            do {
                if var located = try browser.locate(tree: tree, file: file, ancestry: ancestry) {
                    located.family = browser
                    return located
                }
            } catch .notASession(_, let reason) {
                throw .notASession(path: path, reason: "not a \(browser.displayName) input (--browser \(browser.name)): \(reason)")
            }
            throw .notASession(path: path, reason: "not a \(browser.displayName) input (--browser \(browser.name))")
        }
        var refusal: FormatError?
        // A file whose name a family claims is offered to it first.
        let families = all
        let claiming = file.map { name in families.filter { $0.claimsFileName(lastPathComponent(name)) } } ?? []
        for family in claiming + families.filter({ family in !claiming.contains { $0.name == family.name } }) {
            do {
                if var located = try family.locate(tree: tree, file: file, ancestry: ancestry) {
                    located.family = family
                    if file == nil { try refuseSecondBrowser(besides: family, located, tree: tree, ancestry: ancestry, path: path) }
                    return located
                }
            } catch .notASession(let path, let reason) {
                // A family refuses only what it recognises, but the first is also the fallback that
                // refuses everything: a later family's refusal says more.
                refusal = .notASession(path: path, reason: reason)
            }
        }
        throw refusal
            ?? .notASession(path: path, reason: "not a session of any browser sessionctl reads (\(names.joined(separator: ", ")))")
    }

    /// Refuses a directory in which another family too finds sessions (a Firefox profile beside a
    /// Chromium `Sessions/`, Chrome for iOS's legacy windows beside `Session_` files): reading one
    /// would pass over the other in silence. The error names every family there and `--browser`.
    private static func refuseSecondBrowser(
        besides first: any BrowserFamily, _ located: LocatedInput, tree: ReadableTree, ancestry: [String], path: String
    ) throws(FormatError) {
        guard !located.sessions.isEmpty else { return }
        let others = all.filter { $0.name != first.name }.filter { family in
            guard let other = try? family.locate(tree: tree, file: nil, ancestry: ancestry) else { return false }
            return !other.sessions.isEmpty
        }
        guard !others.isEmpty else { return }
        let present = [first] + others
        let names = present.map { "\($0.displayName) (--browser \($0.name))" }.joined(separator: ", ")
        throw .notASession(
            path: path,
            reason: "it holds the sessions of more than one browser: \(names); name the one to read with --browser")
    }
}
