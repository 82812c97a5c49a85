import FileSystemKit
import Foundation

/// Runs a program once under `strace` (Debian's; no privileges needed) in a private working copy
/// of the directory it writes, its standard output kept in a file: the trace of every call that
/// changes or names a file, with the bytes it wrote, which `ExecReplay` models.
struct ExecRecorder {
    /// What one run left.
    struct Run {
        /// The scratch directory holding the copy, the trace and the output (removed by `remove`).
        var scratch: String
        /// The working copy, as an absolute path without symbolic links.
        var workingCopy: String
        /// Where the directory is in the model: `/` and its name (`ExecModel.root`).
        var modelRoot: String
        /// The directory's starting contents, loaded before the run.
        var start: ModelTree
        var trace: String
        var output: [UInt8]

        /// Removes the scratch directory (a directory the program made read-only included).
        func remove() { ExecModel.removeTree(scratch) }
    }

    /// The calls traced: every call that changes a file, names one or moves a descriptor, and
    /// those a recorder must refuse. A `?` lets strace skip one its architecture lacks.
    static let traced = [
        "?open", "openat", "?openat2", "?creat", "write", "pwrite64", "writev", "pwritev", "?pwritev2", "read", "readv", "lseek",
        "truncate", "ftruncate", "fallocate", "fsync", "fdatasync", "sync", "syncfs", "sync_file_range", "?rename", "renameat",
        "?renameat2", "?link", "linkat", "?symlink", "symlinkat", "?unlink", "unlinkat", "?mkdir", "mkdirat", "?rmdir", "close",
        "?close_range", "dup", "?dup2", "dup3", "fcntl", "?copy_file_range", "sendfile", "splice", "mmap", "?io_uring_setup",
        "ioctl", "chdir", "fchdir", "clone", "?clone3", "?fork", "?vfork", "execve", "?execveat"
    ]

    /// The strace on the search path, or nil.
    static func strace() -> String? {
        let paths = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
        return paths.map { "\($0)/strace" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// Copies `directory` into a new scratch directory and runs `program` there under strace.
    static func record(program: [String], directory: String) throws(SimulatorError) -> Run {
        guard let strace = strace() else {
            throw .recorderMissing(
                reason: "strace is not installed (apt-get install strace): crash-test --exec records the program's calls with it")
        }
        guard POSIXFileSystem().resolvedKind(of: directory) == .directory else {
            throw .unreadableWorkload(path: directory, reason: "not a directory (--dir names the directory the program writes)")
        }
        let base = ProcessInfo.processInfo.environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        var template = Array("\(base)/sessionctl-exec.XXXXXX".utf8CString)
        guard let made = template.withUnsafeMutableBufferPointer({ $0.baseAddress.flatMap { mkdtemp($0) } }) else {
            throw .execFailed(reason: "cannot make a scratch directory in \(base)")
        }
        let scratch = String(cString: made)
        var run = Run(scratch: scratch, workingCopy: "", modelRoot: "", start: ModelTree(), trace: "", output: [])
        do {
            // The copy in a directory of its own, named as the directory is (`.` named by its path).
            let source = try canonical(directory)
            run.modelRoot = ExecModel.root(of: source)
            try FileManager.default.createDirectory(atPath: joinPath(scratch, "copy"), withIntermediateDirectories: false)
            try copy(source, to: joinPath(scratch, "copy") + run.modelRoot)
            run.workingCopy = try canonical(joinPath(scratch, "copy") + run.modelRoot)
            run.start = ExecModel.load(run.workingCopy, at: run.modelRoot)
            let tracePath = joinPath(scratch, "trace")
            let outputPath = joinPath(scratch, "output")
            let errorPath = joinPath(scratch, "errors")
            for path in [outputPath, errorPath] where !FileManager.default.createFile(atPath: path, contents: nil) {
                throw SimulatorError.execFailed(reason: "cannot make \(path)")
            }
            let process = Process()
            process.executableURL = URL(fileURLWithPath: strace)
            process.arguments =
                [
                    "-f", "-qq", "-o", tracePath, "-s", "0", "-xx", "-y", "-e", "signal=none", "-e", "write=all", "-e",
                    "trace=" + traced.joined(separator: ",")
                ]
                + ["--"] + program
            process.currentDirectoryURL = URL(fileURLWithPath: run.workingCopy)
            process.standardInput = FileHandle.nullDevice
            process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: outputPath))
            process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: errorPath))
            try process.run()
            process.waitUntilExit()
            let errors = String(decoding: (try? Data(contentsOf: URL(fileURLWithPath: errorPath))) ?? Data(), as: UTF8.self)
            guard process.terminationReason == .exit, process.terminationStatus == 0 else {
                let last = errors.split(separator: "\n").last.map { ": \($0)" } ?? ""
                throw SimulatorError.execFailed(
                    reason: "\(program.joined(separator: " ")) "
                        + (process.terminationReason == .exit
                            ? "exited with status \(process.terminationStatus)" : "was killed by signal \(process.terminationStatus)")
                        + " in the uninterrupted run\(last)")
            }
            run.trace = String(decoding: try Data(contentsOf: URL(fileURLWithPath: tracePath)), as: UTF8.self)
            run.output = [UInt8](try Data(contentsOf: URL(fileURLWithPath: outputPath)))
        } catch let error as SimulatorError {
            run.remove()
            throw error
        } catch {
            run.remove()
            throw .execFailed(reason: "\(error.localizedDescription)")
        }
        return run
    }

    /// Copies a directory tree, modes kept (files by content, symbolic links as links).
    static func copy(_ source: String, to destination: String) throws {
        try FileManager.default.copyItem(atPath: source, toPath: destination)
    }

    /// `path` with every symbolic link resolved.
    static func canonical(_ path: String) throws -> String {
        guard let resolved = realpath(path, nil) else { throw SimulatorError.execFailed(reason: "cannot resolve \(path)") }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
