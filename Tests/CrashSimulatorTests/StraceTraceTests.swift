import TestSupport
import Testing

@_spi(CrashTesting) @testable import CrashSimulator

/// Reading `strace -f -xx -y -e write=all` output: calls with their descriptors' paths, results
/// and errors, the bytes written from the dumps (each buffer of a writev), and calls printed in
/// two halves by two processes joined.
struct StraceTraceTests {
    /// `\xHH` escapes of a path.
    private func hex(_ text: String) -> String { text.utf8.map { "\\x" + String($0, radix: 16) }.joined() }

    @Test func callsPathsResultsAndWrittenBytes() throws {
        let directory = hex("/work/d")
        let file = hex("/work/d/a.txt")
        let trace = """
            4633  openat(AT_FDCWD<\(directory)>, "\(hex("a.txt"))", O_WRONLY|O_CREAT|O_TRUNC|O_CLOEXEC, 0666) = 3<\(file)>
            4633  write(3<\(file)>, ""..., 18) = 18
             | 00000  68 65 6c 6c 6f 0a 68 65  6c 6c 6f 0a 68 65 6c 6c  hello.hello.hell |
             | 00010  6f 0a                                             o.               |
            4633  writev(3<\(file)>, [...], 2) = 4
             * 2 bytes in buffer 0
             | 00000  61 62                                             ab               |
             * 2 bytes in buffer 1
             | 00000  63 64                                             cd               |
            4633  openat(AT_FDCWD<\(directory)>, "\(hex("missing"))", O_RDONLY) = -1 ENOENT (No such file or directory)
            4633  clone(child_stack=NULL, flags=CLONE_CHILD_CLEARTID|CLONE_CHILD_SETTID|SIGCHLD <unfinished ...>
            4634  fsync(3<\(file)>) = 0
            4633  <... clone resumed>, child_tidptr=0x7f) = 4634
            4633  vfork()                                 = 4635
            4635  write(1<\(hex("/out"))>, ""..., 2)       = 2
             | 00000  78 0a                                             x.               |
            4634  +++ exited with 0 +++
            """
        let calls = try StraceTrace.parse(trace)
        #expect(calls.map(\.name) == ["openat", "write", "writev", "openat", "fsync", "clone", "vfork", "write"])
        // A short call's result is padded to strace's column: read all the same.
        #expect(calls[6].result == 4635 && calls[7].written == Array("x\n".utf8))
        #expect(calls[0].result == 3 && calls[0].resultPath == "/work/d/a.txt" && calls[0].succeeded)
        #expect(calls[0].string(1) == Array("a.txt".utf8))
        #expect(calls[0].descriptor(0)?.fd == nil && calls[0].descriptor(0)?.path == "/work/d")
        #expect(StraceText.flags(calls[0].arguments[2]).contains("O_TRUNC"))
        #expect(calls[1].written == Array("hello\nhello\nhello\n".utf8))
        #expect(calls[2].written == Array("abcd".utf8))
        #expect(calls[3].error == "ENOENT" && !calls[3].succeeded)
        #expect(calls[4].pid == 4634 && calls[4].descriptor(0)?.fd == 3)
        #expect(calls[5].pid == 4633 && calls[5].result == 4634 && calls[5].arguments.contains { $0.contains("child_tidptr") })
    }

    /// Commas and brackets inside strings and structures do not split arguments; escapes decode.
    @Test func argumentsSplitOnlyBetweenArguments() {
        let arguments = StraceText.arguments(#"AT_FDCWD, "a,b\x22c", {flags=O_RDONLY, resolve=0}, [1, 2], 24"#)
        #expect(arguments.count == 5)
        #expect(StraceText.string(arguments[1]) == Array("a,b\"c".utf8))
        #expect(StraceText.unescape(#"\x2f\n\t\\\101"#) == [0x2F, 0x0A, 0x09, 0x5C, 0x41])
        #expect(StraceText.integer("0x10") == 16 && StraceText.integer("0644") == 420 && StraceText.integer("-1") == -1)
        #expect(ExecReplay.pointedOffset("[123 => 456]") == 123 && ExecReplay.pointedOffset("NULL") == nil)
        #expect(ExecReplay.absolute("../b/./c", base: "/w/a") == "/w/b/c")
    }

    /// Any text, and a real trace cut and changed anywhere, parses or is damage: never a trap.
    @Test func anyTextParsesOrIsDamage() {
        let path = hex("/w/a")
        let trace = Array(
            """
            7  openat(AT_FDCWD<\(hex("/w"))>, "\(hex("a"))", O_WRONLY|O_CREAT, 0644) = 3<\(path)>
            7  write(3<\(path)>, ""..., 2) = 2
             | 00000  61 62                                             ab               |
            7  pwrite64(3<\(path)>, ""..., 1, 9) = 1
             | 00000  63                                                c                |
            7  renameat2(AT_FDCWD, "\(hex("a"))", AT_FDCWD, "\(hex("b"))", RENAME_NOREPLACE) = 0
            """.utf8)
        var generator = SplitMix64(seed: 5)
        let syntax = Array("()<>\\\",| =x".utf8)
        for round in 0..<3000 {
            var bytes = Array(trace.prefix(Int(generator.next() % UInt64(trace.count + 1))))
            for _ in 0..<Int(generator.next() % 6) where !bytes.isEmpty {
                let at = Int(generator.next() % UInt64(bytes.count))
                bytes[at] =
                    round % 2 == 0 ? UInt8(truncatingIfNeeded: generator.next()) : syntax[Int(generator.next() % UInt64(syntax.count))]
            }
            guard let calls = try? StraceTrace.parse(String(decoding: bytes, as: UTF8.self)) else { continue }
            // What a call holds can be replayed on a model: nothing traps there either.
            let tree = ModelTree()
            try? ModelFileSystem(tree: tree).mkdir("/w", mode: 0o755)
            _ = try? ExecReplay.replay(calls, root: "/w", modelRoot: "/w", tree: tree, workload: "fuzz")
        }
    }

    /// What strace prints of real runs that the first reader missed: `(deleted)` after the
    /// bracket (strace 5.19 and later), an errno it cannot name, and a thread's execve resumed as
    /// the leader.
    @Test func deletedFilesUnnamedErrnosAndExecveFromAThread() throws {
        let file = hex("/w/#12")
        let trace = """
            7  openat(AT_FDCWD<\(hex("/w"))>, "\(hex("."))", O_RDWR|O_TMPFILE, 0600) = 3<\(file)>(deleted)
            7  ioctl(3<\(file)>(deleted), FIONREAD) = -1 (errno 531)
            8  execve("\(hex("/bin/true"))", [], []) <unfinished ...>
            7  <... execve resumed>) = 0
            """
        let calls = try StraceTrace.parse(trace)
        #expect(calls.map(\.name) == ["openat", "ioctl", "execve"])
        #expect(calls[0].resultPath == "/w/#12 (deleted)" && calls[0].result == 3)
        #expect(!calls[1].succeeded)
        #expect(calls[2].pid == 7 && calls[2].succeeded)
    }

    /// A child's descriptors are its parent's at the fork, not at the child's first call: a file
    /// the parent closes after the fork is still written by the child; and dup2 onto itself and
    /// close_range (bounds printed as descriptors) keep the table right.
    @Test func aChildWritesThroughWhatItInheritedAtTheFork() throws {
        let file = hex("/w/log")
        let trace = """
            1  openat(AT_FDCWD<\(hex("/w"))>, "\(hex("log"))", O_WRONLY|O_CREAT|O_CLOEXEC, 0644) = 3<\(file)>
            1  clone(child_stack=NULL, flags=SIGCHLD) = 2
            1  close(3<\(file)>) = 0
            2  dup2(3<\(file)>, 3<\(file)>) = 3<\(file)>
            2  write(3<\(file)>, ""..., 2) = 2
             | 00000  68 69                                             hi               |
            2  close_range(3<\(file)>, -1, 0) = 0
            2  write(3, ""..., 2) = 2
             | 00000  68 69                                             hi               |
            """
        let tree = ModelTree()
        try ModelFileSystem(tree: tree).mkdir("/w", mode: 0o755)
        let result = try ExecReplay.replay(try StraceTrace.parse(trace), root: "/w", modelRoot: "/w", tree: tree, workload: "t")
        #expect(result.recording.operations.map(\.summary) == ["create log", "write 2 bytes to log"])
        #expect(ExecModel.contents(of: tree, at: "/w")["log"] == .some(Array("hi".utf8)))
    }

    /// A dump with no call before it is a damaged trace, not a guess.
    @Test func aDumpWithoutItsCallIsDamage() {
        #expect(throws: StraceTrace.Damage.self) { try StraceTrace.parse(" | 00000  61 62   ab |\n") }
    }
}
