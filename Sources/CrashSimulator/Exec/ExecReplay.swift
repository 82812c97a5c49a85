import FileSystemKit

/// A traced program's calls on the files of its directory, replayed on a model of that directory:
/// each call that changes a file below it becomes a recorded operation with its effect (what the
/// crash-state explorer splits, drops and tears), the program's standard output is kept with the
/// number of operations issued before each write to it, and what cannot be modelled is refused.
///
/// Descriptors are followed per process (a child's table copied from its parent's at its first
/// call, or shared when it was cloned with `CLONE_FILES`), with each open file's position, so that
/// a `write` lands where the program's did; paths are resolved against the descriptor or working
/// directory they were given with.
struct ExecReplay {
    /// What the replay made of the trace.
    struct Result {
        var recording: Recording
        /// The program's standard output, each write with the operations issued before it.
        var output: [(afterOperations: Int, bytes: [UInt8])]
        /// Calls on files outside the directory, counted by call name (not modelled).
        var outside: [String: Int]
        /// Calls that change nothing a crash can lose but were seen (sync_file_range), with why.
        var notes: [String]
    }

    /// A call that cannot be modelled, and why.
    struct Refusal: Error, Sendable {
        var line: Int
        var reason: String
    }

    /// A file a descriptor is open on.
    final class OpenFile {
        /// The path on disk when it was opened (kept up to date through renames of the directory's files).
        var path: String
        /// The inode in the model (nil: outside the directory).
        var inode: Int32?
        var isDirectory: Bool
        var position = 0
        var append: Bool
        /// The program's standard output.
        var isOutput = false

        init(path: String, inode: Int32?, isDirectory: Bool, append: Bool) {
            self.path = path
            self.inode = inode
            self.isDirectory = isDirectory
            self.append = append
        }
    }

    /// A process's descriptors (shared between threads), and which close on exec.
    final class DescriptorTable {
        var files: [Int: OpenFile] = [:]
        var closeOnExec: Set<Int> = []

        func copy() -> DescriptorTable {
            let table = DescriptorTable()
            table.files = files
            table.closeOnExec = closeOnExec
            return table
        }
    }

    /// The largest file the model holds (a hostile trace could ask for a terabyte).
    static let largestFile = 1 << 30

    let root: String
    let modelRoot: String
    let tree: ModelTree
    let fileSystem: ModelFileSystem
    var operations: [FileOperation] = []
    var output: [(afterOperations: Int, bytes: [UInt8])] = []
    var outside: [String: Int] = [:]
    var notes: [String] = []
    var tables: [Int: DescriptorTable] = [:]
    var directories: [Int: String] = [:]
    /// Each child process with its parent and whether it shares its parent's descriptors.
    var parents: [Int: (parent: Int, shares: Bool)] = [:]
    var nextInode: Int32
    /// Files outside the directory the program opened for writing (their content during the run
    /// is not known; the others are read from disk when the program copies from them).
    var writtenOutside: Set<String> = []

    /// A replay of calls made in `root` (the working copy on disk, an absolute path without
    /// symbolic links) on `tree`, which holds its starting contents at `modelRoot`.
    init(root: String, modelRoot: String, tree: ModelTree) {
        self.root = root
        self.modelRoot = modelRoot
        self.tree = tree
        fileSystem = ModelFileSystem(tree: tree)
        nextInode = tree.inodeCapacity
    }

    /// Replays `calls` (the first call's process is the program, its descriptor 1 the output
    /// the checker is given).
    static func replay(
        _ calls: [TracedCall], root: String, modelRoot: String, tree: ModelTree, workload: String
    ) throws(Refusal) -> Result {
        let initial = tree.snapshot()
        var replay = ExecReplay(root: root, modelRoot: modelRoot, tree: tree)
        replay.parents = Self.children(calls)
        replay.writtenOutside = Set(
            calls.compactMap { call -> String? in
                guard call.succeeded, ["open", "openat", "openat2", "creat"].contains(call.name), let path = call.resultPath else {
                    return nil
                }
                let flags = call.arguments.first { $0.contains("O_") } ?? ""
                let writes = call.name == "creat" || flags.contains("O_WRONLY") || flags.contains("O_RDWR")
                return writes && replay.modelPath(path) == nil ? path : nil
            })
        if let first = calls.first {
            let table = DescriptorTable()
            for fd in 0...2 {
                let file = OpenFile(path: "", inode: nil, isDirectory: false, append: false)
                file.isOutput = fd == 1
                table.files[fd] = file
            }
            replay.tables[first.pid] = table
            replay.directories[first.pid] = root
        }
        for call in calls where call.succeeded { try replay.apply(call) }
        let recording = Recording(
            workload: workload, profile: modelRoot, initial: initial, names: tree.names, operations: replay.operations,
            acknowledgements: replay.output.enumerated().map { index, write in
                Acknowledgement(afterOperations: write.afterOperations, version: index, label: "output \(index + 1)", privacyGroup: nil)
            }, versions: VersionIndex(), privacy: PrivacyIndex(), inodeCount: max(tree.inodeCapacity, replay.nextInode),
            running: Array(repeating: false, count: replay.operations.count), events: [])
        return Result(recording: recording, output: replay.output, outside: replay.outside, notes: replay.notes)
    }

    /// Every child process of the trace with its parent, from the calls that made them.
    static func children(_ calls: [TracedCall]) -> [Int: (parent: Int, shares: Bool)] {
        var found: [Int: (parent: Int, shares: Bool)] = [:]
        for call in calls where ["clone", "clone3", "fork", "vfork"].contains(call.name) {
            guard let child = call.result, child > 0 else { continue }
            let shares = call.arguments.contains { $0.contains("CLONE_FILES") }
            found[Int(child)] = (call.pid, shares)
        }
        return found
    }

    /// The descriptor table of `pid`, made from its parent's at its first call.
    mutating func table(_ pid: Int) -> DescriptorTable {
        if let table = tables[pid] { return table }
        var table = DescriptorTable()
        if let (parent, shares) = parents[pid] {
            let parentTable = self.table(parent)
            table = shares ? parentTable : parentTable.copy()
            directories[pid] = directories[parent]
        }
        tables[pid] = table
        return table
    }

    /// The working directory of `pid`.
    mutating func directory(_ pid: Int) -> String {
        _ = table(pid)
        return directories[pid] ?? root
    }

    /// `path` made absolute against `base`, `.` and `..` resolved by name.
    static func absolute(_ path: String, base: String) -> String {
        let joined = path.hasPrefix("/") ? path : base + "/" + path
        var parts: [Substring] = []
        for part in joined.split(separator: "/") {
            if part == "." || part.isEmpty { continue }
            if part == ".." {
                if !parts.isEmpty { parts.removeLast() }
                continue
            }
            parts.append(part)
        }
        return "/" + parts.joined(separator: "/")
    }

    /// The model's path of a path on disk, or nil when it is outside the directory.
    func modelPath(_ path: String) -> String? {
        if path == root { return modelRoot }
        guard path.hasPrefix(root + "/") else { return nil }
        return modelRoot + path.dropFirst(root.count)
    }

    /// What a path shown to people says: relative to the directory.
    func shown(_ modelPath: String) -> String {
        if modelPath == modelRoot { return "." }
        return modelPath.hasPrefix(modelRoot + "/") ? String(modelPath.dropFirst(modelRoot.count + 1)) : modelPath
    }

    /// Records an operation whose effect is already on the tree.
    mutating func record(
        _ kind: FileOperation.Kind, _ path: String, destination: String? = nil, size: Int = 0, _ effect: Effect, call: TracedCall
    ) {
        operations.append(
            FileOperation(
                kind: kind, path: shown(path), destination: destination.map(shown), size: size, effect: effect,
                context: "\(call.name), trace line \(call.line)", site: .none))
    }
}
