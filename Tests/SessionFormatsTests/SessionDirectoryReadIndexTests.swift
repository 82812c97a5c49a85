import Foundation
import TestSupport
import Testing

@testable import SessionFormats

/// What a session directory read keeps beside its entries (the tab directories, the position of
/// each name) agrees with deriving it from the entries, after the read and after entries change.
@Suite struct SessionDirectoryReadIndexTests {
    init() { Browsers.install() }

    static func checkIndexes(_ directory: SessionDirectoryRead) {
        #expect(directory.tabDirectories.map(\.name) == directory.entries.compactMap(\.tab).map(\.name))
        for entry in directory.entries {
            #expect(directory.entry(named: entry.name)?.name == directory.entries.first { $0.name == entry.name }?.name)
        }
        #expect(directory.entry(named: "no-such-entry") == nil)
    }

    @Test(arguments: ["Fixtures/profiles/healthy", "Fixtures/gallery/unreferenced-entry", "Fixtures/gallery/tab-data-missing"])
    func keptIndexesMatchTheEntries(_ profile: String) throws {
        let path = Corpus.repository.appendingPathComponent(profile).path
        let read = InputRead(try InputOpener.open(path), depth: .tabs)
        let directories = read.sessions.compactMap(\.directory)
        #expect(!directories.isEmpty)
        for var directory in directories {
            Self.checkIndexes(directory)
            // Entries replaced, dropped and reordered: the indexes follow.
            directory.entries = Array(directory.entries.dropFirst().reversed())
            Self.checkIndexes(directory)
            directory.entries = []
            Self.checkIndexes(directory)
            #expect(directory.tabDirectories.isEmpty)
        }
    }
}
