import Foundation
import SessionFormats
import SessionModel
import SessionStore
import TestSupport
import Testing

@testable import ChromeIOS
@testable import SessionForensics

/// Import stopped at every single file operation: no window is ever half there (each is absent
/// or complete), and a plain second import writes everything, leaving nothing behind.
@Suite struct ImportInterruptionTests {
    init() { Browsers.install() }

    typealias Support = MigrationTestSupport

    @Test func anInterruptedImportLeavesWholeWindowsOnlyAndARerunFinishes() throws {
        let healthy = try Support.liveSessions(RepairGalleryTests.gallery + "/healthy")
        var step = 1
        while true {
            let profile = FileManager.default.temporaryDirectory.appendingPathComponent("import-\(UUID().uuidString)").path
            defer { try? FileManager.default.removeItem(atPath: profile) }
            let writer = ProfileWriter(writer: AtomicWriter(fileSystem: ProcessCrashFileSystem(stopAt: step)))
            let completed = (try? ProfileImporter(profile: profile, writer: writer).importSessions(healthy)) != nil
            if FileManager.default.fileExists(atPath: profile) {
                // Whatever is live reads whole: every window listed is one of the document's, complete.
                let live = (try? Support.liveSessions(profile)) ?? []
                for session in live {
                    #expect(
                        healthy.contains {
                            $0.id == session.id && $0.incognito == session.incognito && $0.tabs.count == session.tabs.count
                        },
                        "operation \(step): \(session.id) is half there")
                }
            }
            _ = try ProfileImporter(profile: profile).importSessions(
                healthy.filter { session in
                    !FileManager.default.fileExists(atPath: ProfileWriter.sessionDirectory(profile: profile, session: session))
                })
            #expect(Support.comparable(try Support.liveSessions(profile)) == Support.comparable(healthy), "after operation \(step)")
            let leftovers = AsideTestSupport.snapshot(profile).keys.filter {
                $0.contains(InterruptedCommands.importStagingPrefix) || $0.contains(AtomicWriter.temporaryPrefix)
            }
            #expect(leftovers.isEmpty, "after operation \(step): \(leftovers)")
            if completed { break }
            step += 1
        }
        #expect(step > 5)
    }
}
