import Archive
import FileSystemKit
import Foundation
import SessionFormats
import SessionModel
import SessionStore
import TestSupport
import Testing

@testable import SessionForensics

/// Setting sessions aside and bringing them back, on profiles written to a temporary directory.
@Suite struct AsideTests {
    init() { Browsers.install() }

    typealias Support = AsideTestSupport

    @Test func pushListRestoreRoundTripsByteIdentical() throws {
        let profile = try Support.makeProfile()
        defer { try? FileManager.default.removeItem(atPath: profile) }
        let before = Support.snapshot(profile)
        let aside = Support.aside(profile)
        let pushed = try aside.push(session: nil, incognito: false, reason: "test")
        #expect(pushed.map(\.session) == Support.windows)
        #expect(pushed.allSatisfy { !$0.incognito && $0.origin == .sessionctl && $0.hasManifest })
        #expect(try POSIXFileSystem().list(joinPath(profile, "SessionStorage")).isEmpty)
        #expect(try aside.list() == pushed)
        for entry in pushed {
            #expect(entry.name == "\(entry.session)@\(lastPathComponent(entry.path))")
            _ = try aside.restore(entry.name, force: false)
        }
        #expect(try aside.list().isEmpty)
        #expect(Support.snapshot(profile) == before)
        #expect(FileManager.default.fileExists(atPath: joinPath(profile, "Backups")) == false)
    }

    @Test func manifestRecordsEveryFile() throws {
        let profile = try Support.makeProfile()
        defer { try? FileManager.default.removeItem(atPath: profile) }
        let before = Support.snapshot(profile)
        let entry = try #require(try Support.aside(profile).push(session: Support.windows[1], incognito: false, reason: "why not").first)
        let bytes = try POSIXFileSystem().read(joinPath(profile, entry.path, "manifest.json"))
        let manifest = try #require(AsideManifest.decode(bytes))
        #expect(manifest.reason == "why not")
        #expect(manifest.toolVersion == "test")
        #expect(manifest.originalPath == "SessionStorage/\(Support.windows[1])")
        #expect(manifest.time == entry.time)
        let prefix = "SessionStorage/\(Support.windows[1])/"
        let original = before.filter { $0.key.hasPrefix(prefix) }
        #expect(manifest.files.map(\.path) == original.keys.map { String($0.dropFirst(prefix.count)) }.sorted())
        for file in manifest.files {
            let data = try #require(original[prefix + file.path])
            #expect(file.size == Int64(data.count))
            #expect(file.sha256 == SHA256.hex(SHA256.hash([UInt8](data))))
        }
        #expect(entry.files == original.count)
        #expect(entry.bytes == Int64(original.values.reduce(0) { $0 + $1.count }))
    }

    @Test func incognitoGoesToOTRBackups() throws {
        let profile = try Support.makeProfile()
        defer { try? FileManager.default.removeItem(atPath: profile) }
        let aside = Support.aside(profile)
        let entries = try aside.push(session: nil, incognito: true, reason: "test")
        #expect(entries.count == 1)
        let path = try #require(entries.first?.path)
        #expect(path.hasPrefix("OTR/Backups/\(Support.windows[0])/"))
        #expect(AsideStamp.parse(lastPathComponent(path)) == entries.first?.time)
        #expect(entries.first?.incognito == true)
        #expect(try POSIXFileSystem().list(joinPath(profile, "SessionStorage")).count == 2)
        let restored = try aside.restore(entries[0].name, force: false)
        #expect(restored.destination == "OTR/SessionStorage/\(Support.windows[0])")
    }

    @Test func restoreRefusesALiveSessionUnlessForced() throws {
        let profile = try Support.makeProfile()
        defer { try? FileManager.default.removeItem(atPath: profile) }
        let aside = Support.aside(profile)
        let id = Support.windows[0]
        let original = try #require(try aside.push(session: id, incognito: false, reason: "first").first)
        // Chrome started a new window with the same id.
        try ProfileWriter().write(Support.session(id: id, tabs: [77], incognito: false), profile: profile)
        let newer = Support.snapshot(profile).filter { $0.key.hasPrefix("SessionStorage/\(id)/") }
        #expect(throws: ForensicsError.liveSessionInTheWay(path: joinPath(profile, "SessionStorage", id))) {
            try aside.restore(original.name, force: false)
        }
        let outcome = try aside.restore(original.name, force: true)
        let displaced = try #require(outcome.displaced)
        #expect(try aside.list().map(\.name) == [displaced.name])
        let now = Support.snapshot(profile)
        for (path, data) in newer {
            #expect(now[displaced.path + "/" + path.dropFirst("SessionStorage/\(id)/".count)] == data)
        }
    }

    @Test func dropDeletesOnlyThatEntry() throws {
        let profile = try Support.makeProfile()
        defer { try? FileManager.default.removeItem(atPath: profile) }
        let aside = Support.aside(profile)
        let entries = try aside.push(session: nil, incognito: false, reason: "test")
        let dropped = try aside.drop(entries[0].name)
        #expect(dropped == entries[0])
        #expect(try aside.list() == [entries[1]])
        #expect(throws: ForensicsError.entryNotFound(profile: profile, entry: entries[0].name)) { try aside.drop(entries[0].name) }
        _ = try aside.drop(entries[1].name)
        #expect(FileManager.default.fileExists(atPath: joinPath(profile, "Backups")) == false)
    }

    @Test func chromesOwnBackupIsListedRestoredAndDropped() throws {
        let profile = try Support.makeProfile()
        defer { try? FileManager.default.removeItem(atPath: profile) }
        // A session.plist as Chrome writes it: restore reads it back before it goes live.
        let legacy = GalleryTests.repository.appendingPathComponent(
            "Fixtures/profiles/legacy/Sessions/7A3F0C2E-1B4D-4E8F-9A6B-5C2D1E0F3A4B/session.plist")
        let plist = [UInt8](try Data(contentsOf: legacy))
        for id in ["LEGACY-1", "LEGACY-2"] {
            try AtomicWriter().makeDirectories(joinPath(profile, "Backups", id))
            try AtomicWriter().write(plist, to: joinPath(profile, "Backups", id, "session.backup.plist"))
        }
        let aside = Support.aside(profile)
        let entries = try aside.list()
        #expect(entries.map(\.name) == ["LEGACY-1@chrome", "LEGACY-2@chrome"])
        #expect(entries.allSatisfy { $0.origin == .chrome && $0.time == nil && $0.files == 1 && $0.bytes == Int64(plist.count) })
        let outcome = try aside.restore("LEGACY-1@chrome", force: false)
        #expect(outcome.destination == "Sessions/LEGACY-1")
        #expect(outcome.shadowed)
        #expect(try POSIXFileSystem().read(joinPath(profile, "Sessions/LEGACY-1/session.plist")) == plist)
        _ = try aside.drop("LEGACY-2@chrome")
        #expect(try aside.list().isEmpty)
    }

    @Test func namesThatCouldEscapeAreRefused() throws {
        let profile = try Support.makeProfile()
        defer { try? FileManager.default.removeItem(atPath: profile) }
        let aside = Support.aside(profile)
        for name in ["../x@20261121T183426.123456Z", "..@20261121T183426.123456Z", "x@../../etc", "noat", "@chrome", "a/b@chrome"] {
            #expect(throws: ForensicsError.self) { try aside.restore(name, force: true) }
            #expect(throws: ForensicsError.self) { try aside.drop(name) }
        }
        #expect(throws: ForensicsError.self) { try aside.push(session: "../SessionStorage", incognito: false, reason: "") }
        #expect(throws: ForensicsError.sessionNotFound(profile: profile, session: "NOPE", incognito: false)) {
            try aside.push(session: "NOPE", incognito: false, reason: "")
        }
    }

    @Test func backupsAreNoWiderThanTheSession() throws {
        let profile = try Support.makeProfile()
        defer { try? FileManager.default.removeItem(atPath: profile) }
        let id = Support.windows[0]
        try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: joinPath(profile, "SessionStorage", id))
        let entry = try #require(try Support.aside(profile).push(session: id, incognito: false, reason: "").first)
        let fileSystem = POSIXFileSystem()
        #expect(fileSystem.permissions(of: joinPath(profile, "Backups")) == 0o700)
        #expect(fileSystem.permissions(of: joinPath(profile, "Backups", id)) == 0o700)
        #expect(fileSystem.permissions(of: joinPath(profile, entry.path)) == 0o700)
        #expect(fileSystem.permissions(of: joinPath(profile, entry.path, "manifest.json")) == 0o600)
    }

    @Test func entriesWithoutManifestAreListedAndRestorable() throws {
        let profile = try Support.makeProfile()
        defer { try? FileManager.default.removeItem(atPath: profile) }
        let before = Support.snapshot(profile)
        let id = Support.windows[1]
        let stamp = "20261121T183426.123456Z"
        try FileManager.default.createDirectory(atPath: joinPath(profile, "Backups", id), withIntermediateDirectories: true)
        try FileManager.default.moveItem(atPath: joinPath(profile, "SessionStorage", id), toPath: joinPath(profile, "Backups", id, stamp))
        let aside = Support.aside(profile)
        let entry = try #require(try aside.list().first)
        #expect(entry.name == "\(id)@\(stamp)" && !entry.hasManifest && entry.reason == nil)
        #expect(entry.time == AsideStamp.parse(stamp) && entry.files == 3)
        _ = try aside.restore(entry.name, force: false)
        #expect(Support.snapshot(profile) == before)
    }
}
