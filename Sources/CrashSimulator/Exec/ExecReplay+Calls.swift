/// The calls `ExecReplay` models, one handler each.
extension ExecReplay {
    /// Applies one successful call.
    mutating func apply(_ call: TracedCall) throws(Refusal) {
        switch call.name {
        case "open", "creat":
            try open(
                call, path: call.string(0), base: nil, flagsText: call.name == "creat" ? "O_WRONLY|O_CREAT|O_TRUNC" : argument(call, 1))
        case "openat": try open(call, path: call.string(1), base: call.descriptor(0), flagsText: argument(call, 2))
        case "openat2": try open(call, path: call.string(1), base: call.descriptor(0), flagsText: openHowFlags(argument(call, 2)))
        case "write", "writev": try write(call, offset: nil, appending: false)
        case "pwrite64", "pwritev", "pwritev2":
            let offset = call.integer(3) ?? -1
            try write(
                call, offset: offset < 0 ? nil : Int(offset), appending: call.name == "pwritev2" && argument(call, 4).contains("RWF_APPEND")
            )
        case "read", "readv":
            if let file = file(call, 0), let count = call.result { file.position = file.position &+ Int(count) }
        case "lseek":
            if let file = file(call, 0), let position = call.result { file.position = Int(position) }
        case "ftruncate":
            if let file = file(call, 0), let inode = file.inode { try truncate(inode, path: file.path, to: call.integer(1), call: call) }
        case "truncate":
            if let path = resolved(call, call.string(0), base: nil), let model = modelPath(path), let inode = fileSystem.resolve(model) {
                try truncate(inode, path: path, to: call.integer(1), call: call)
            } else {
                countOutside(call)
            }
        case "fallocate": try fallocate(call)
        case "fsync", "fdatasync": sync(call)
        case "sync", "syncfs": syncEverything(call)
        case "sync_file_range":
            if file(call, 0)?.inode != nil {
                notes.append("sync_file_range (trace line \(call.line)) starts writeback but makes nothing durable: not counted as a sync")
            }
        case "rename", "renameat", "renameat2": try rename(call)
        case "link", "linkat": try link(call)
        case "symlink", "symlinkat":
            let at = call.name == "symlink" ? 1 : 2
            if let path = resolved(call, call.string(at), base: call.name == "symlink" ? nil : call.descriptor(1)), modelPath(path) != nil {
                throw Refusal(line: call.line, reason: "symlink \(path): symbolic links are not modelled")
            }
        case "unlink", "unlinkat", "rmdir": try remove(call)
        case "mkdir", "mkdirat": try makeDirectory(call)
        case "close":
            if let fd = call.descriptor(0)?.fd { closeDescriptor(call.pid, fd) }
        case "close_range":
            // Both bounds are printed as descriptors; ~0U as -1.
            guard let first = call.descriptor(0)?.fd, let lastText = call.descriptor(1)?.fd else { break }
            let last = lastText < 0 ? Int(UInt32.max) : lastText
            let table = self.table(call.pid)
            for fd in table.files.keys where fd >= first && fd <= last {
                if argument(call, 2).contains("CLOSE_RANGE_CLOEXEC") { table.closeOnExec.insert(fd) } else { closeDescriptor(call.pid, fd) }
            }
        case "dup", "dup2", "dup3": duplicate(call, closeOnExec: call.name == "dup3" && argument(call, 2).contains("O_CLOEXEC"))
        case "fcntl": fcntl(call)
        case "copy_file_range", "sendfile": try copy(call)
        case "splice":
            if let out = file(call, 2), out.inode != nil {
                throw Refusal(line: call.line, reason: "splice into \(out.path): data that comes through a pipe is not in the trace")
            }
        case "mmap": try map(call)
        case "io_uring_setup":
            throw Refusal(line: call.line, reason: "io_uring: its writes are not system calls strace sees")
        case "ioctl":
            let request = argument(call, 1)
            if file(call, 0)?.inode != nil, request.contains("FICLONE") || request.contains("CLONE") || request.contains("DEDUPE") {
                throw Refusal(line: call.line, reason: "ioctl \(request): a reflink shares blocks, which is not modelled")
            }
        case "chdir":
            if let path = resolved(call, call.string(0), base: nil) { directories[call.pid] = path }
        case "fchdir":
            if let file = file(call, 0) { directories[call.pid] = file.path }
        case "clone", "clone3", "fork", "vfork":
            // The child's descriptors and directory are its parent's as they are now (unless its
            // own calls came first, while the parent was still in the call).
            if let child = call.result, child > 0 { _ = table(Int(child)) }
        case "execve", "execveat":
            let table = self.table(call.pid)
            for fd in table.closeOnExec { table.files[fd] = nil }
            table.closeOnExec = []
        default: break
        }
    }

    /// The printed argument at `index` (empty when missing).
    func argument(_ call: TracedCall, _ index: Int) -> Substring {
        index < call.arguments.count ? call.arguments[index] : ""
    }

    /// The `flags=` of an `open_how` structure (`{flags=O_RDONLY, resolve=...}`).
    func openHowFlags(_ text: Substring) -> Substring {
        guard let start = text.range(of: "flags=") else { return "" }
        return text[start.upperBound...].prefix { $0 != "," && $0 != "}" }
    }

    /// The open file of the descriptor argument at `index`.
    mutating func file(_ call: TracedCall, _ index: Int) -> OpenFile? {
        guard let fd = call.descriptor(index)?.fd else { return nil }
        return table(call.pid).files[fd]
    }

    /// The path on disk a path argument names, made absolute against the descriptor it was given
    /// with (its path as `-y` printed it) or the working directory.
    mutating func resolved(_ call: TracedCall, _ path: [UInt8]?, base: (fd: Int?, path: String?)?) -> String? {
        guard let path else { return nil }
        let text = String(decoding: path, as: UTF8.self)
        var directory = self.directory(call.pid)
        if let base {
            if let printed = base.path {
                directory = printed
            } else if let fd = base.fd, let open = table(call.pid).files[fd] {
                directory = open.path
            }
        }
        return Self.absolute(text, base: directory)
    }

    mutating func countOutside(_ call: TracedCall) {
        outside[call.name, default: 0] += 1
    }

    mutating func closeDescriptor(_ pid: Int, _ fd: Int) {
        let table = self.table(pid)
        table.files[fd] = nil
        table.closeOnExec.remove(fd)
    }

    /// A new inode number.
    mutating func newInode() -> Int32 {
        let inode = max(nextInode, tree.inodeCapacity)
        nextInode = inode + 1
        return inode
    }
}
