import Foundation
import Testing

/// Reading commands given a .gz file or a .tar.gz bundle: read in place, as the tree it holds.
@Suite struct CompressedInputCommandTests {
    static let fixture = CLI.path("Fixtures/profiles/healthy")
    static let metadata = "SessionStorage/E9D8C7B6-A5F4-4321-8765-0FEDCBA98765/session_metadata.pb"

    @Test func inspectReadsABundleAsTheProfileWithoutExtracting() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        #expect(try CLI.run(["compress", Self.fixture, "-o", "\(dir)/healthy.tar.gz"]).status == 0)
        let direct = try CLI.run(["inspect", Self.fixture, "--history", "--format", "json"])
        let bundled = try CLI.run(["inspect", "\(dir)/healthy.tar.gz", "--history", "--format", "json"])
        #expect(bundled.status == 0, "\(bundled.stderr)")
        #expect(bundled.stdout == direct.stdout)
        #expect(try CLI.run(["inspect", "\(dir)/healthy.tar.gz"]).stdout == CLI.run(["inspect", Self.fixture]).stdout)
        #expect(Archives.listing(dir) == ["healthy.tar.gz"])
    }

    @Test func inspectReadsWhatTarAndGzipWrite() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let tar = try CLI.runProgram("/usr/bin/env", ["tar", "-czf", "\(dir)/by-tar.bin", "-C", CLI.path("Fixtures/profiles"), "healthy"])
        #expect(tar.status == 0)
        let direct = try CLI.run(["inspect", Self.fixture, "--history", "--format", "json"])
        let fromTar = try CLI.run(["inspect", "\(dir)/by-tar.bin", "--history", "--format", "json"])
        #expect(fromTar.status == 0, "\(fromTar.stderr)")
        #expect(fromTar.stdout == direct.stdout)
        let gz = try CLI.runProgram(
            "/usr/bin/env", ["sh", "-c", "gzip -c '\(Self.fixture)/\(Self.metadata)' > '\(dir)/session_metadata.pb.gz'"])
        #expect(gz.status == 0)
        let file = try CLI.run(["inspect", "\(dir)/session_metadata.pb.gz", "--format", "json"])
        #expect(file.status == 0, "\(file.stderr)")
        let tabs = { (text: String) throws -> Any? in
            let document = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
            return ((document?["sessions"] as? [[String: Any]])?.first?["tabs"] as? [[String: Any]])?.map { $0["id"] as? Int }
        }
        let single = try CLI.run(["inspect", "\(Self.fixture)/\(Self.metadata)", "--format", "json"])
        #expect(try tabs(file.stdout) as? [Int?] == tabs(single.stdout) as? [Int?])
        #expect(try tabs(file.stdout) as? [Int?] == [20])
    }

    @Test func validateAndDiffAcceptBundles() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        #expect(try CLI.run(["compress", Self.fixture, "-o", "\(dir)/healthy.tar.gz"]).status == 0)
        let validate = try CLI.run(["validate", "\(dir)/healthy.tar.gz", "--format", "json"])
        #expect(validate.status == 0, "\(validate.stderr)")
        let diff = try CLI.run(["diff", "\(dir)/healthy.tar.gz", Self.fixture, "--history"])
        #expect(diff.status == 0, "\(diff.stdout)\(diff.stderr)")
    }

    @Test func damagedAndHostileArchivesAre65() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        #expect(try CLI.run(["compress", Self.fixture, "-o", "\(dir)/healthy.tar.gz"]).status == 0)
        let bytes = try #require(FileManager.default.contents(atPath: "\(dir)/healthy.tar.gz"))
        try bytes.prefix(bytes.count / 2).write(to: URL(fileURLWithPath: "\(dir)/cut.tar.gz"))
        let cut = try CLI.run(["inspect", "\(dir)/cut.tar.gz"])
        #expect(cut.status == 65)
        #expect(
            cut.stderr == "sessionctl: \(dir)/cut.tar.gz: damaged at byte \(bytes.count / 2): unexpected end of gzip data (truncated)\n")
        try Archives.tarGz([(.init(path: "/etc/passwd", kind: .file), Array("x".utf8))]).write(
            to: URL(fileURLWithPath: "\(dir)/evil.tar.gz"))
        let evil = try CLI.run(["inspect", "\(dir)/evil.tar.gz"])
        #expect(evil.status == 65 && evil.stderr.contains("refused: absolute path"))
    }

    /// A path inside a bundle, in the form the reading commands print (`ARCHIVE/MEMBER`), is taken
    /// back: a directory or a file member is read as that input.
    @Test func aMemberOfABundleIsReadBackByItsPrintedPath() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let tar = try CLI.runProgram(
            "/usr/bin/env", ["tar", "-czf", "\(dir)/ticket.tar.gz", "-C", CLI.path("Fixtures/profiles"), "healthy"])
        #expect(tar.status == 0)
        let window = "SessionStorage/E9D8C7B6-A5F4-4321-8765-0FEDCBA98765"
        for (member, direct) in [
            ("healthy/\(window)", "\(Self.fixture)/\(window)"), ("healthy/\(Self.metadata)", "\(Self.fixture)/\(Self.metadata)")
        ] {
            let inside = try CLI.run(["inspect", "\(dir)/ticket.tar.gz/\(member)", "--format", "json"])
            #expect(inside.status == 0, "\(member): \(inside.stderr)")
            let expected = try CLI.run(["inspect", direct, "--format", "json"])
            let tabs = { (text: String) -> [Int] in
                let document = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
                return ((document?["sessions"] as? [[String: Any]])?.first?["tabs"] as? [[String: Any]])?.compactMap { $0["id"] as? Int }
                    ?? []
            }
            #expect(!tabs(inside.stdout).isEmpty && tabs(inside.stdout) == tabs(expected.stdout), "\(member)")
            #expect(try CLI.run(["validate", "\(dir)/ticket.tar.gz/\(member)"]).status == 0, "\(member)")
        }
        let missing = try CLI.run(["inspect", "\(dir)/ticket.tar.gz/healthy/SessionStorage/nothing-here"])
        #expect(missing.status == 66)
        #expect(missing.stderr.contains("no member healthy/SessionStorage/nothing-here in ticket.tar.gz"), "\(missing.stderr)")
        #expect(Archives.listing(dir) == ["ticket.tar.gz"])
    }
}
