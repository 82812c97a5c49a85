import FileSystemKit
import Foundation
import SessionFormats
import SessionStore
import TestSupport
import Testing

@testable import SessionForensics

/// The content digest a repair records before setting a window aside equals the digest of the
/// manifest of the entry the set-aside makes: settling an interrupted repair finds its entry.
@Suite struct ContentDigestAgreementTests {
    init() { Browsers.install() }

    @Test(arguments: ["healthy", "tab-id-duplicate", "stray-file", "legacy-healthy"])
    func theRecordedDigestIsTheEntrysDigest(name: String) throws {
        let profile = try RepairGalleryTests.copy(name)
        defer { try? FileManager.default.removeItem(atPath: profile) }
        // A temporary file and a backup name in the window: neither is copied, neither counts.
        let aside = AsideTestSupport.aside(profile)
        for incognito in [false, true] {
            for (id, directory) in try aside.liveSessions(incognito: incognito) {
                try Data([7]).write(to: URL(fileURLWithPath: "\(profile)/\(directory)/\(AtomicWriter.temporaryPrefix)x.1.2"))
                let recorded = try aside.checkMovable(directory)
                #expect(recorded == (try ContentDigest.ofDirectory("\(profile)/\(directory)", fileSystem: aside.fileSystem)))
                let entry = try aside.push(id, incognito: incognito, directory: directory, reason: "test")
                #expect(ContentDigest.ofEntry("\(profile)/\(entry.path)", fileSystem: aside.fileSystem) == recorded, "\(name) \(directory)")
            }
        }
    }
}
