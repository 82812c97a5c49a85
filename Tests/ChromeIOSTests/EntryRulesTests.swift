import SessionFormats
import SessionModel
import TestSupport
import Testing

@testable import ChromeIOS
@testable import SessionForensics

/// What Chrome deletes from a session directory and from tab directories.
@Suite struct EntryRulesTests {
    init() { Browsers.install() }

    static let directory = Samples.directory

    static func findings(_ tree: MemoryTree, kept: [TabID] = [1], listed: [TabID] = [1]) -> [Finding] {
        EntryRules.sessionEntries(
            SessionDirectoryRead(tree: tree.readable, id: Samples.sessionID, incognito: false, path: directory).entries,
            directory: directory,
            kept: Set(kept.map(Tab.directoryName)),
            listed: Dictionary(uniqueKeysWithValues: listed.map { (Tab.directoryName(for: $0), $0) }),
            scope: Samples.scope(file: "\(directory)/session_metadata.pb"))
    }

    static func tree(_ extra: [String: [UInt8]], directories: [String] = []) -> MemoryTree {
        let tree = MemoryTree(["\(directory)/session_metadata.pb": [], "\(directory)/00000001/data.pb": [1]])
        for (path, bytes) in extra { tree.add("\(directory)/\(path)", bytes) }
        for path in directories { tree.addDirectory("\(directory)/\(path)") }
        return tree
    }

    /// The one classification of an entry no listed tab owns, which validate's findings and
    /// repair's steps both take.
    @Test func anUnlistedEntryBreaksOneRule() {
        #expect(EntryRules.unlistedEntryRule("data.pb.tmp", isDirectory: false, isEmpty: true) == .temporaryFile)
        #expect(EntryRules.unlistedEntryRule(".dat.nosync1a2b", isDirectory: true, isEmpty: false) == .temporaryFile)
        #expect(EntryRules.unlistedEntryRule("notes.txt", isDirectory: false, isEmpty: true) == .strayFile)
        #expect(EntryRules.unlistedEntryRule("0000000a", isDirectory: true, isEmpty: true) == .strayFile)
        #expect(EntryRules.unlistedEntryRule("0000000a", isDirectory: true, isEmpty: false) == .unreferencedEntry)
        #expect(EntryRules.unlistedEntryRule("0000000A", isDirectory: true, isEmpty: false) == .tabDirectoryNameInvalid)
        #expect(EntryRules.unlistedEntryRule("1a2b", isDirectory: true, isEmpty: false) == .tabDirectoryNameInvalid)
        #expect(EntryRules.unlistedEntryRule("0000000a", isDirectory: false, isEmpty: true) == .strayFile)
        #expect(EntryRules.unlistedEntryRule("photos", isDirectory: true, isEmpty: false) == .strayFile)
    }

    @Test func keptAndListedDirectoriesAreLeftToOtherRules() {
        let tree = Self.tree(["00000002/data.pb": [1]])
        #expect(Self.findings(tree, kept: [1], listed: [1, 2]).isEmpty)
    }

    @Test func anOrphanTabDirectoryWithFilesIsUnreferenced() throws {
        let findings = Self.findings(Self.tree(["0000002a/data.pb": [1], "0000002a/state.pb": [2]]))
        let finding = try #require(findings.first)
        #expect(findings.count == 1)
        #expect(finding.rule == .unreferencedEntry && finding.tab?.id == 42 && finding.tab?.index == nil)
        #expect(finding.file == "\(Self.directory)/0000002a")
    }

    @Test func anEmptyOrphanTabDirectoryLosesNothing() {
        #expect(Self.findings(Self.tree([:], directories: ["0000002a"])).map(\.rule) == [.strayFile])
    }

    @Test(arguments: ["0000000A", "a", "000000001", "7FFFFFFF", "ffffffff"])
    func misnamedTabDirectories(name: String) {
        let findings = Self.findings(Self.tree(["\(name)/data.pb": [1]]))
        #expect(findings.map(\.rule) == [.tabDirectoryNameInvalid])
    }

    @Test func aMisnamedDirectoryOfAListedTabNamesTheTab() {
        let findings = Self.findings(Self.tree(["00000002/data.pb": [1], "0000000B/data.pb": [1]]), kept: [1, 2, 11], listed: [1, 2, 11])
        #expect(findings.first?.tab?.id == 11)
        #expect(findings.first?.message.contains("0000000b") == true)
    }

    @Test(arguments: [".dat.nosync1c2d.Ab3xYz", ".sessionctl-tmp.12.0", "session_metadata.pb.tmp", "data.pb.tmp.Qx81aZ"])
    func temporaryFiles(name: String) {
        #expect(Self.findings(Self.tree([name: [0]])).map(\.rule) == [.temporaryFile])
    }

    @Test(arguments: [".DS_Store", "notes.txt", "metadata.pb", "session.plist"])
    func strayFiles(name: String) {
        #expect(Self.findings(Self.tree([name: [0]])).map(\.rule) == [.strayFile])
    }

    @Test func aStrayDirectory() {
        #expect(Self.findings(Self.tree(["old tabs/x": [0]])).map(\.rule) == [.strayFile])
    }

    @Test func tabDirectoryContents() {
        let names = ["data.pb", "state.pb", "metadata.pb", ".dat.nosync0001.abcdef", "copy of data.pb"]
        let findings = EntryRules.tabEntries(
            names: names, directory: "t", tab: TabReference(index: 0, id: 1),
            scope: Samples.scope(file: "x"))
        // DeleteUnknownContent lists the session directory alone: all of these stay.
        #expect(findings.map(\.rule) == [.transitionalMetadata, .tabDirectoryExtra, .tabDirectoryExtra])
        #expect(findings.allSatisfy { $0.outcome == .none })
        #expect(findings.map(\.file) == ["t/metadata.pb", "t/.dat.nosync0001.abcdef", "t/copy of data.pb"])
    }
}
