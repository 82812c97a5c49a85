import Foundation
import TestSupport
import Testing

/// Each command reads each file of its input once: the opens of regular files under the input,
/// counted with strace (`-y` names the file each descriptor leads to, relative opens included).
@Suite(.serialized, .exhaustive) struct ReadOnceTests {
    /// Gallery profiles with every kind of session: optimized, incognito, legacy beside
    /// SessionStorage, Chrome's backups, damaged lists and tab files, unlisted directories.
    static let profiles = [
        "Fixtures/profiles/healthy", "Fixtures/profiles/legacy", "Fixtures/gallery/backup-present",
        "Fixtures/gallery/mixed-formats", "Fixtures/gallery/metadata-truncated", "Fixtures/gallery/tab-data-truncated",
        "Fixtures/gallery/unreferenced-entry", "Fixtures/gallery/incognito-tab-data-truncated", "Fixtures/gallery/legacy-two-windows",
        "Fixtures/gallery/state-too-large",
        // Every other family: healthy profiles and damaged ones, a legacy archive, backups.
        "Fixtures/firefox-ios/gallery/healthy", "Fixtures/firefox-ios/gallery/backup-unparsable",
        "Fixtures/firefox-ios/gallery/legacy-archive-unmigrated", "Fixtures/firefox-desktop/gallery/healthy",
        "Fixtures/firefox-desktop/gallery/json-cut", "Fixtures/firefox-desktop/gallery/backup-cut",
        "Fixtures/chromium-desktop/gallery/healthy", "Fixtures/chromium-desktop/gallery/record-past-end",
        "Fixtures/real/chromium-desktop/edge-141", "Fixtures/real/firefox-desktop/firefox-57", "Fixtures/safari-ios/home",
        "Fixtures/safari-ios/gallery/tab-closed-in-wal", "Fixtures/safari-ios/gallery/browser-state-refused"
    ]

    /// Session files of every family given alone (the command names the file, not its profile).
    static let files = [
        "Fixtures/profiles/healthy/SessionStorage", "Fixtures/firefox-ios/gallery/healthy/profile.profile/window-data",
        "Fixtures/firefox-desktop/gallery/healthy", "Fixtures/chromium-desktop/gallery/healthy/Sessions",
        "Fixtures/firefox-ios/gallery/legacy-archive-unmigrated/profile.profile", "Fixtures/safari-ios/gallery/healthy"
    ]

    /// How many times each regular file under `root` was opened by `arguments`.
    static func opens(_ arguments: [String], under root: String) throws -> [String: Int] {
        let traced = try CLI.runProgram(
            "/usr/bin/strace", ["-f", "-y", "-qq", "-e", "trace=open,openat,openat2", "-e", "status=successful", CLI.binary] + arguments)
        #expect(traced.status == 0 || traced.status == 1, "\(arguments): \(traced.stderr.suffix(400))")
        var counts: [String: Int] = [:]
        for line in traced.stderr.split(separator: "\n") where line.contains("open") && !line.contains("O_DIRECTORY") {
            // `... = 4</absolute/path>`: the file the new descriptor leads to.
            guard let equals = line.range(of: "= ", options: .backwards),
                let open = line[equals.upperBound...].firstIndex(of: "<"), line.hasSuffix(">")
            else { continue }
            let path = String(line[line.index(after: open)..<line.index(before: line.endIndex)])
            guard path.hasPrefix(root + "/") else { continue }
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue else { continue }
            counts[String(path.dropFirst(root.count + 1)), default: 0] += 1
        }
        return counts
    }

    /// A copy of a repository profile in a temporary directory (its real path, as strace names it).
    static func copy(_ profile: String) throws -> (directory: String, profile: String) {
        let directory = try CLI.temporaryDirectory()
        let real = URL(fileURLWithPath: directory).resolvingSymlinksInPath().path
        let target = "\(real)/profile"
        try FileManager.default.copyItem(atPath: CLI.path(profile), toPath: target)
        return (directory, target)
    }

    @Test(.enabled(if: CLI.hasStrace, "strace is not installed (apt-get install strace)"), arguments: profiles)
    func everyReadingCommandReadsEachFileOnce(_ profile: String) throws {
        let (directory, path) = try Self.copy(profile)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let commands: [[String]] = [
            ["inspect", path], ["inspect", "--history", "--format", "json", path], ["validate", path],
            ["validate", "--format", "json", path], ["report", "--history", path, "--output", "\(directory)/report.html"],
            ["diff", "--history", path, path], ["repair", "--dry-run", path]
        ]
        for command in commands {
            let counts = try Self.opens(command, under: path)
            // diff reads its two inputs, here the same profile, each once.
            let allowed = command.first == "diff" ? 2 : 1
            let twice = counts.filter { $0.value > allowed }.sorted { $0.key < $1.key }
            #expect(
                twice.isEmpty, "\(command.dropLast(command.first == "report" ? 3 : 1).joined(separator: " ")) on \(profile) read \(twice)")
            #expect(!counts.isEmpty, "\(command) read nothing of \(profile)")
        }
    }

    /// Each session file given alone is recognised and read once by every reading command,
    /// whichever family owns it.
    @Test(.enabled(if: CLI.hasStrace, "strace is not installed (apt-get install strace)"), arguments: files)
    func aFileGivenAloneIsReadOnce(_ directory: String) throws {
        let (scratch, path) = try Self.copy(directory)
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let names = try FileManager.default.subpathsOfDirectory(atPath: path).filter { name in
            var isDirectory: ObjCBool = false
            return FileManager.default.fileExists(atPath: "\(path)/\(name)", isDirectory: &isDirectory) && !isDirectory.boolValue
                && !name.hasSuffix("prefs.js") && !name.hasSuffix(".json") && !name.hasPrefix("tab-session-data")
        }
        #expect(!names.isEmpty)
        for name in names {
            let file = "\(path)/\(name)"
            for command in [["inspect", file], ["inspect", "--history", "--format", "json", file], ["validate", file]] {
                let counts = try Self.opens(command, under: path)
                #expect(counts[name] == 1, "\(command.joined(separator: " ")) opened \(name) \(counts[name] ?? 0) times: \(counts)")
            }
        }
    }

    /// A repair reads each file once to plan, and reads back what it wrote: the set-aside copy of
    /// a replaced directory (hashed for its manifest) and the profile it leaves (validated).
    @Test(.enabled(if: CLI.hasStrace, "strace is not installed (apt-get install strace)"), arguments: profiles)
    func repairReadsEachFileOnceThenReadsBackWhatItWrote(_ profile: String) throws {
        let (directory, path) = try Self.copy(profile)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let counts = try Self.opens(["repair", path], under: path)
        let more = counts.filter { $0.value > 3 }.sorted { $0.key < $1.key }
        #expect(more.isEmpty, "repair of \(profile) read \(more)")
    }
}
