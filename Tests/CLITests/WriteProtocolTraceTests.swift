import FileSystemKit
import Foundation
import Testing

/// Writing a profile seen through strace: every file by a temp name (O_EXCL), fsync, rename and
/// fsync of its directory; nothing ever opened with O_TRUNC or for writing under its final name.
@Suite struct WriteProtocolTraceTests {
    /// One traced system call: its name, the quoted strings in its arguments, the paths strace -y
    /// shows for file descriptors, and the raw text.
    struct Call {
        var name: String
        var strings: [String]
        var fdPaths: [String]
        var text: String

        init?(_ line: String) {
            var text = Substring(line)
            // strace -f prefixes the pid, padded with spaces to a fixed width.
            if let space = text.firstIndex(of: " "), text[..<space].allSatisfy(\.isNumber) { text = text[space...] }
            text = text.drop { $0 == " " }
            guard let paren = text.firstIndex(of: "(") else { return nil }
            name = String(text[..<paren])
            self.text = String(text)
            strings = Call.delimited(text, open: "\"", close: "\"")
            fdPaths = Call.delimited(text, open: "<", close: ">")
        }

        static func delimited(_ text: Substring, open: Character, close: Character) -> [String] {
            var result: [String] = []
            var index = text.startIndex
            while let start = text[index...].firstIndex(of: open) {
                let from = text.index(after: start)
                guard let end = text[from...].firstIndex(of: close) else { break }
                result.append(String(text[from..<end]))
                index = text.index(after: end)
            }
            return result
        }
    }

    @Test(.enabled(if: CLI.hasStrace, "strace is not installed (apt-get install strace)"))
    func importWritesEveryFileByTempFsyncRenameAndDirectoryFsync() throws {
        let dir = try CLI.temporaryDirectory("trace")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let out = "\(dir)/profile"
        let trace = "\(dir)/trace"
        let result = try CLI.runProgram(
            "/usr/bin/strace",
            [
                // Only the main thread, which does every write: with -f, a loaded machine splits calls of
                // concurrent threads into "unfinished" and "resumed" lines that no longer parse.
                "-y", "-o", trace, "-e", "trace=openat,open,creat,fsync,fdatasync,rename,renameat,renameat2,truncate,ftruncate",
                CLI.binary, "import", CLI.path("Fixtures/profiles/healthy.json"), "--out", out
            ])
        #expect(result.status == 0, "\(result.stderr)")
        let calls = try String(contentsOfFile: trace, encoding: .utf8).split(separator: "\n").compactMap { Call(String($0)) }
            .filter { call in call.strings.contains { $0.hasPrefix(out) } || call.fdPaths.contains { $0.hasPrefix(out) } }

        var finals: [String] = []
        var staged: [(from: String, to: String)] = []
        for (index, call) in calls.enumerated() where call.name.hasPrefix("rename") {
            let paths = call.strings
            guard paths.count == 2 else {
                Issue.record("unparsed rename: \(call.text)")
                continue
            }
            let (temp, final) = (paths[0], paths[1])
            let directory = (final as NSString).deletingLastPathComponent
            #expect((temp as NSString).deletingLastPathComponent == directory, "temp beside its file: \(temp)")
            if (temp as NSString).lastPathComponent.hasPrefix(".sessionctl-import.") {
                // A whole session directory, written under a staged name, renamed into place.
                staged.append((temp, final))
                let next = calls[(index + 1)...].first { $0.name == "fsync" || $0.name.hasPrefix("rename") }
                #expect(next?.name == "fsync" && next?.fdPaths.first == directory, "the parent is fsynced after the rename of \(final)")
                continue
            }
            finals.append(final)
            let before = calls[..<index]
            let create = before.lastIndex { $0.name == "openat" && $0.strings.first == temp }
            let opened = create.map { calls[$0].text } ?? ""
            #expect(
                opened.contains("O_CREAT") && opened.contains("O_EXCL") && !opened.contains("O_TRUNC"),
                "temp created with O_EXCL: \(opened)")
            #expect(before.contains { $0.name == "fsync" && $0.fdPaths.first == temp }, "temp fsynced before the rename of \(final)")
            let next = calls[(index + 1)...].first { $0.name == "fsync" || $0.name.hasPrefix("rename") }
            #expect(next?.name == "fsync" && next?.fdPaths.first == directory, "the directory is fsynced after the rename of \(final)")
        }

        finals = finals.map { final in
            staged.first { final.hasPrefix($0.from + "/") }.map { $0.to + final.dropFirst($0.from.count) } ?? final
        }
        #expect(!staged.isEmpty, "sessions are staged, then renamed into place")
        let written = try FileManager.default.subpathsOfDirectory(atPath: out).map { "\(out)/\($0)" }
            .filter {
                var isDirectory: ObjCBool = false
                return FileManager.default.fileExists(atPath: $0, isDirectory: &isDirectory) && !isDirectory.boolValue
            }
        #expect(!written.isEmpty)
        #expect(Set(written) == Set(finals), "every file of the profile arrived by rename")
        for call in calls {
            #expect(!call.text.contains("O_TRUNC") && !call.name.contains("truncate"), "no truncation: \(call.text)")
            if call.name == "openat", let path = call.strings.first, finals.contains(path) {
                #expect(!call.text.contains("O_WRONLY") && !call.text.contains("O_RDWR"), "a final name opened for writing: \(call.text)")
            }
        }
    }
}
