import FileSystemKit
import Foundation
import SessionFormats
import SessionModel
import SessionStore
import TestSupport
import Testing

@testable import SessionForensics

/// Interrupting push, restore and drop after every single file operation: no session file is ever
/// lost (each is live or in an entry, with its bytes), and what was interrupted can be finished.
@Suite struct AsideInterruptionTests {
    init() { Browsers.install() }

    typealias Support = AsideTestSupport

    /// Each original session file, by its path within its session, must be found with the same
    /// bytes in the live session directory or in one of the session's entries.
    func expectNothingLost(_ originals: [String: Data], id: SessionID, in profile: String, at step: Int) {
        let now = Support.snapshot(profile)
        for (path, data) in originals {
            let places =
                ["SessionStorage/\(id)/\(path)"]
                + now.keys.filter {
                    $0.hasPrefix("Backups/\(id)/") && $0.hasSuffix("/" + path)
                        && $0.split(separator: "/").count == path.split(separator: "/").count + 3
                }
            #expect(places.contains { now[$0] == data }, "\(path) lost when interrupted at operation \(step)")
        }
    }

    func sessionFiles(_ profile: String, _ id: SessionID) -> [String: Data] {
        let prefix = "SessionStorage/\(id)/"
        return Dictionary(
            uniqueKeysWithValues: Support.snapshot(profile).filter { $0.key.hasPrefix(prefix) }
                .map { (String($0.key.dropFirst(prefix.count)), $0.value) })
    }

    /// Runs `operation` once per possible interruption point, on a fresh profile prepared by `prepare`.
    func interruptEverywhere(
        prepare: (Aside) throws -> String, operation: (Aside, String) throws -> Void,
        check: (String, Int) throws -> Void
    ) throws {
        var step = 1
        while true {
            let profile = try Support.makeProfile()
            defer { try? FileManager.default.removeItem(atPath: profile) }
            let name = try prepare(Support.aside(profile))
            let failing = FailingAfterFileSystem(failAt: step)
            let completed = (try? operation(Support.aside(profile, fileSystem: failing), name)) != nil
            try check(profile, step)
            if completed { break }
            step += 1
            if step > 200 {
                Issue.record("no completion after 200 operations")
                break
            }
        }
        #expect(step > 3)
    }

    @Test func interruptedPushLosesNothing() throws {
        let id = Support.windows[0]
        var originals: [String: Data] = [:]
        try interruptEverywhere(
            prepare: { aside in
                originals = sessionFiles(aside.profile, id)
                return id
            },
            operation: { aside, id in
                _ = try aside.push(session: id, incognito: false, reason: "test")
            },
            check: { profile, step in
                expectNothingLost(originals, id: id, in: profile, at: step)
                // Whatever state it was left in, once settled as every command does first, the entry
                // (if any) is listed and restores cleanly.
                let aside = Support.aside(profile)
                _ = try aside.settleInterrupted()
                for entry in try aside.list() { _ = try aside.restore(entry.name, force: false) }
                #expect(sessionFiles(profile, id) == originals, "after interruption at \(step)")
            })
    }

    @Test func interruptedForcedRestoreLosesNothing() throws {
        let id = Support.windows[0]
        var originals: [String: Data] = [:]
        var replacement: [String: Data] = [:]
        try interruptEverywhere(
            prepare: { aside in
                originals = sessionFiles(aside.profile, id)
                let name = try #require(try aside.push(session: id, incognito: false, reason: "test").first).name
                try ProfileWriter().write(Support.session(id: id, tabs: [77, 78], incognito: false), profile: aside.profile)
                replacement = sessionFiles(aside.profile, id)
                return name
            },
            operation: { aside, name in
                _ = try aside.restore(name, force: true)
            },
            check: { profile, step in
                expectNothingLost(originals, id: id, in: profile, at: step)
                expectNothingLost(replacement, id: id, in: profile, at: step)
            })
    }

    @Test func interruptedDropLeavesTheEntryWholeOrGone() throws {
        let id = Support.windows[1]
        var originals: [String: Data] = [:]
        try interruptEverywhere(
            prepare: { aside in
                originals = sessionFiles(aside.profile, id)
                return try #require(try aside.push(session: id, incognito: false, reason: "test").first).name
            },
            operation: { aside, name in
                _ = try aside.drop(name)
            },
            check: { profile, step in
                let aside = Support.aside(profile)
                let entries = try aside.list()
                #expect(entries.count <= 1)
                if let entry = entries.first {
                    _ = try aside.restore(entry.name, force: false)
                    #expect(sessionFiles(profile, id) == originals, "entry damaged by interruption at \(step)")
                } else {
                    // A later drop of the session clears hidden leftovers.
                    let leftovers = (try? POSIXFileSystem().list(joinPath(profile, "Backups", id))) ?? []
                    #expect(leftovers.allSatisfy { $0.hasPrefix(".sessionctl-drop.") })
                }
            })
    }
}
