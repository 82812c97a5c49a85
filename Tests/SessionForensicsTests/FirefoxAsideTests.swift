import FileSystemKit
import Foundation
import SessionFormats
import SessionModel
import SessionStore
import TestSupport
import Testing

@testable import SessionForensics

/// `aside` on a Firefox for iOS container (a window is its file, its backup and its tabs' session
/// states): push, restore and drop interrupted after every file operation never lose a file of the
/// window, and each finishes when run again.
@Suite struct FirefoxAsideTests {
    init() { Browsers.install() }

    typealias Support = AsideTestSupport
    static let window = "E3F1A7C2-5B4D-4E6F-8A9B-0C1D2E3F4A5B"

    /// A copy of the gallery's healthy container.
    static func makeContainer() throws -> String {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("firefox-aside-\(UUID().uuidString)").path
        try FileManager.default.copyItem(
            atPath: GalleryTests.repository.appendingPathComponent("Fixtures/firefox-ios/gallery/healthy").path, toPath: root)
        return root
    }

    /// Every file of the window, by its path in the profile.
    static func windowFiles(_ root: String) -> [String: Data] {
        Support.snapshot(root).filter { $0.key.hasPrefix("profile.profile/") }
    }

    /// Each original file is live or in an entry of the window, with its bytes.
    func expectNothingLost(_ originals: [String: Data], in root: String, at step: Int) {
        let now = Support.snapshot(root)
        for (path, data) in originals {
            let places = [path] + now.keys.filter { $0.hasPrefix("Backups/\(Self.window)/") && $0.hasSuffix("/" + path) }
            #expect(places.contains { now[$0] == data }, "\(path) lost when interrupted at operation \(step)")
        }
    }

    /// Runs `operation` on a fresh container prepared by `prepare`, failing at each operation in
    /// turn, until it completes.
    func interruptEverywhere(
        prepare: (String) throws -> String, operation: (Aside, String) throws -> Void, check: (String, Int) throws -> Void
    ) throws {
        var step = 1
        while step <= 200 {
            let root = try Self.makeContainer()
            defer { try? FileManager.default.removeItem(atPath: root) }
            let name = try prepare(root)
            let completed = (try? operation(Support.aside(root, fileSystem: FailingAfterFileSystem(failAt: step)), name)) != nil
            try check(root, step)
            if completed { return }
            step += 1
        }
        Issue.record("no completion after 200 operations")
    }

    @Test func pushSetsEveryFileOfTheWindowAsideAndRestoreBringsItBack() throws {
        let root = try Self.makeContainer()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let originals = Self.windowFiles(root)
        let aside = Support.aside(root)
        let entries = try aside.push(session: nil, incognito: false, reason: "test")
        #expect(entries.count == 1 && entries[0].files == originals.count)
        #expect(Self.windowFiles(root).isEmpty, "the window's files left the live profile")
        #expect(try aside.list().map(\.name) == entries.map(\.name))
        _ = try aside.restore(entries[0].name, force: false)
        #expect(Self.windowFiles(root) == originals)
        #expect(try aside.list().isEmpty)
    }

    @Test func anInterruptedPushLosesNothingAndARerunFinishes() throws {
        var originals: [String: Data] = [:]
        try interruptEverywhere(
            prepare: { root in
                originals = Self.windowFiles(root)
                return ""
            },
            operation: { aside, _ in _ = try aside.push(session: nil, incognito: false, reason: "test") },
            check: { root, step in
                expectNothingLost(originals, in: root, at: step)
                _ = try Support.aside(root).push(session: nil, incognito: false, reason: "again")
                expectNothingLost(originals, in: root, at: step)
                #expect(Self.windowFiles(root).isEmpty, "a rerun sets the rest aside (step \(step))")
            })
    }

    @Test func anInterruptedRestoreLosesNothingAndARerunFinishes() throws {
        var originals: [String: Data] = [:]
        try interruptEverywhere(
            prepare: { root in
                originals = Self.windowFiles(root)
                return try Support.aside(root).push(session: nil, incognito: false, reason: "test")[0].name
            },
            operation: { aside, name in _ = try aside.restore(name, force: false) },
            check: { root, step in
                expectNothingLost(originals, in: root, at: step)
                let aside = Support.aside(root)
                if let entry = try aside.list().first { _ = try aside.restore(entry.name, force: false) }
                #expect(Self.windowFiles(root) == originals, "a rerun restores the window whole (step \(step))")
                #expect(try aside.list().isEmpty, "step \(step)")
            })
    }
}
