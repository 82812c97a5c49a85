import FileSystemKit
import Foundation

/// The calls of `ExecReplay` that change the directory's files or name them anew.
extension ExecReplay {
    /// The entry for `path` (a model path): its directory and interned name.
    mutating func entry(_ path: String, call: TracedCall) throws(Refusal) -> (directory: Int32, name: Int32) {
        do throws(FileSystemError) {
            return try fileSystem.parentAndName(path, operation: call.name)
        } catch {
            throw Refusal(
                line: call.line,
                reason: "\(call.name) of \(shown(path)) in a directory the model does not hold (the recording missed its making)")
        }
    }

    /// What a file is called in operations: its path below the directory, or what it is.
    func display(_ file: OpenFile) -> String {
        modelPath(file.path) ?? "(an unnamed file)"
    }

    mutating func open(_ call: TracedCall, path: [UInt8]?, base: (fd: Int?, path: String?)?, flagsText: Substring) throws(Refusal) {
        guard let result = call.result else { return }
        let fd = Int(result)
        let flags = StraceText.flags(flagsText)
        let table = self.table(call.pid)
        if flags.contains("O_CLOEXEC") { table.closeOnExec.insert(fd) } else { table.closeOnExec.remove(fd) }
        // What the descriptor is open on as -y printed it (symbolic links followed), else the argument.
        var real = call.resultPath ?? resolved(call, path, base: base) ?? ""
        let unnamed = flags.contains("O_TMPFILE") || real.hasSuffix(" (deleted)")
        if real.hasSuffix(" (deleted)") { real = String(real.dropLast(" (deleted)".count)) }
        let append = flags.contains("O_APPEND")
        guard let model = modelPath(real) ?? (unnamed ? resolved(call, path, base: base).flatMap(modelPath) : nil) else {
            table.files[fd] = OpenFile(path: real, inode: nil, isDirectory: flags.contains("O_DIRECTORY"), append: append)
            return
        }
        if flags.contains("O_TMPFILE") {
            let inode = newInode()
            tree.ensureNode(inode, directory: false)
            table.files[fd] = OpenFile(path: model + "/(unnamed)", inode: inode, isDirectory: false, append: append)
            return
        }
        if let inode = fileSystem.resolve(model) {
            let isDirectory = tree.isDirectory(inode) == true
            let file = OpenFile(path: real, inode: inode, isDirectory: isDirectory, append: append)
            table.files[fd] = file
            let writes = flags.contains("O_WRONLY") || flags.contains("O_RDWR")
            if !isDirectory, writes, flags.contains("O_TRUNC"), let node = tree.fileState(inode), node.blob.count > 0 {
                try truncate(inode, path: real, to: 0, call: call)
            }
            return
        }
        guard flags.contains("O_CREAT") else {
            throw Refusal(
                line: call.line,
                reason: "\(call.name) opened \(shown(model)), which the model does not hold (the recording missed its making)")
        }
        let at = try entry(model, call: call)
        let inode = newInode()
        tree.ensureNode(inode, directory: false)
        tree.setEntry(at.directory, at.name, inode)
        record(.create, model, .addEntry(directory: at.directory, name: at.name, inode: inode, isDirectory: false), call: call)
        table.files[fd] = OpenFile(path: real, inode: inode, isDirectory: false, append: append)
    }

    mutating func write(_ call: TracedCall, offset: Int?, appending: Bool) throws(Refusal) {
        guard let file = file(call, 0), let result = call.result else { return }
        let count = Int(result)
        if file.isOutput || file.inode != nil, call.written.count < count {
            throw Refusal(
                line: call.line,
                reason:
                    "the trace holds \(call.written.count) of the \(count) bytes written to \(file.isOutput ? "the program's output" : shown(display(file))) (strace's dump of written data is missing)"
            )
        }
        if file.isOutput {
            output.append((operations.count, Array(call.written.prefix(count))))
            return
        }
        guard let inode = file.inode, !file.isDirectory else {
            if offset == nil { file.position = file.position &+ count }
            countOutside(call)
            return
        }
        guard call.written.count >= count else {
            throw Refusal(
                line: call.line,
                reason:
                    "the trace holds \(call.written.count) of the \(count) bytes written to \(shown(display(file))) (strace's dump of written data is missing)"
            )
        }
        guard count > 0 else { return }
        // Linux appends whatever offset is given when the file was opened with O_APPEND.
        let at = file.append || appending ? (tree.blob(of: inode)?.count ?? 0) : offset ?? file.position
        try store(call.written[0..<count], at: at, inode: inode, path: display(file), call: call)
        if offset == nil { file.position = at + count }
    }

    /// Records the write of `bytes` at `at` in `inode`.
    mutating func store(_ bytes: ArraySlice<UInt8>, at: Int, inode: Int32, path: String, call: TracedCall) throws(Refusal) {
        guard at >= 0, at <= Self.largestFile - bytes.count else {
            throw Refusal(
                line: call.line,
                reason: "a write at byte \(at) of \(shown(path)): past the \(Self.largestFile >> 20) MiB the model holds of a file")
        }
        guard let node = tree.fileState(inode) else { return }
        let index = Int32(operations.count)
        let result = node.blob.writing(bytes, at: at)
        tree.setContent(inode, result, dataOperation: index, exact: true)
        record(
            .write, path, size: bytes.count,
            .write(inode: inode, offset: at, bytes: Array(bytes), previous: node.dataOperation, result: result), call: call)
    }

    mutating func truncate(_ inode: Int32, path: String, to size: Int64?, call: TracedCall) throws(Refusal) {
        guard let size, size >= 0 else { return }
        guard size <= Int64(Self.largestFile) else {
            throw Refusal(
                line: call.line, reason: "a file cut or grown to \(size) bytes: past the \(Self.largestFile >> 20) MiB the model holds")
        }
        guard let node = tree.fileState(inode) else { return }
        let index = Int32(operations.count)
        let result = node.blob.resized(to: Int(size))
        tree.setContent(inode, result, dataOperation: index, exact: true)
        record(
            .truncate, modelPath(path) ?? path, size: Int(size),
            .truncate(inode: inode, size: Int(size), previous: node.dataOperation, result: result), call: call)
    }

    mutating func fallocate(_ call: TracedCall) throws(Refusal) {
        guard let file = file(call, 0), let inode = file.inode else { return }
        let mode = argument(call, 1)
        if mode == "0" {
            let (end, overflow) = (call.integer(2) ?? 0).addingReportingOverflow(call.integer(3) ?? 0)
            guard !overflow else {
                throw Refusal(line: call.line, reason: "fallocate past the largest file size on \(shown(display(file)))")
            }
            if end > Int64(tree.blob(of: inode)?.count ?? 0) { try truncate(inode, path: file.path, to: end, call: call) }
        } else if mode != "FALLOC_FL_KEEP_SIZE" {
            throw Refusal(line: call.line, reason: "fallocate \(mode) on \(shown(display(file))): only allocation is modelled")
        }
    }

    mutating func sync(_ call: TracedCall) {
        guard let file = file(call, 0), let inode = file.inode else { return }
        if file.isDirectory {
            record(.fsyncDirectory, display(file), .fsyncDirectory(directory: inode), call: call)
        } else {
            record(.fsync, display(file), .fsyncFile(inode: inode), call: call)
        }
    }

    /// `sync` and `syncfs`: every file and directory of the directory made durable.
    mutating func syncEverything(_ call: TracedCall) {
        guard let top = fileSystem.resolve(modelRoot) else { return }
        var stack = [(top, modelRoot)]
        while let (inode, path) = stack.popLast() {
            if tree.isDirectory(inode) == true {
                for (name, child) in tree.entries(of: inode).sorted(by: { $0.key < $1.key }) {
                    stack.append((child, path + "/" + tree.names.name(name)))
                }
                record(.fsyncDirectory, path, .fsyncDirectory(directory: inode), call: call)
            } else {
                record(.fsync, path, .fsyncFile(inode: inode), call: call)
            }
        }
    }

    mutating func rename(_ call: TracedCall) throws(Refusal) {
        let plain = call.name == "rename"
        let from = resolved(call, call.string(plain ? 0 : 1), base: plain ? nil : call.descriptor(0))
        let to = resolved(call, call.string(plain ? 1 : 3), base: plain ? nil : call.descriptor(2))
        let flags = argument(call, 4)
        if call.name == "renameat2", flags.contains("RENAME_EXCHANGE") || flags.contains("RENAME_WHITEOUT") {
            throw Refusal(line: call.line, reason: "renameat2 \(flags): only a plain rename is modelled")
        }
        guard let from, let to else { return }
        switch (modelPath(from), modelPath(to)) {
        case (nil, nil):
            countOutside(call)
        case (nil, let target?):
            throw Refusal(
                line: call.line, reason: "\(shown(target)) moved in from \(from), outside the directory: its content is not in the trace")
        case (let source?, nil):
            let at = try entry(source, call: call)
            tree.setEntry(at.directory, at.name, nil)
            record(.unlink, source, .removeEntry(directory: at.directory, name: at.name), call: call)
        case (let source?, let target?):
            let at = try entry(source, call: call)
            guard let inode = tree.lookup(at.directory, at.name) else {
                throw Refusal(
                    line: call.line, reason: "rename of \(shown(source)), which the model does not hold (the recording missed its making)")
            }
            let destination = try entry(target, call: call)
            if tree.lookup(destination.directory, destination.name) == inode { return }
            tree.setEntry(at.directory, at.name, nil)
            tree.setEntry(destination.directory, destination.name, inode)
            record(
                .rename, source, destination: target,
                .rename(
                    fromDirectory: at.directory, fromName: at.name, toDirectory: destination.directory, toName: destination.name,
                    inode: inode),
                call: call)
            // Open files keep up with their names (and those below a renamed directory).
            for table in tables.values {
                for file in table.files.values where file.path == from || file.path.hasPrefix(from + "/") {
                    file.path = to + file.path.dropFirst(from.count)
                }
            }
        }
    }

    mutating func link(_ call: TracedCall) throws(Refusal) {
        let plain = call.name == "link"
        let empty = !plain && argument(call, 4).contains("AT_EMPTY_PATH")
        let target = resolved(call, call.string(plain ? 1 : 3), base: plain ? nil : call.descriptor(2))
        guard let target, let model = modelPath(target) else {
            countOutside(call)
            return
        }
        var inode: Int32?
        var source = "(an unnamed file)"
        if empty {
            inode = file(call, 0)?.inode
        } else if let path = resolved(call, call.string(plain ? 0 : 1), base: plain ? nil : call.descriptor(0)) {
            if let model = modelPath(path) {
                source = model
                inode = fileSystem.resolve(model)
            } else {
                throw Refusal(
                    line: call.line, reason: "\(shown(model)) linked to \(path), outside the directory: its content is not in the trace")
            }
        }
        guard let inode else {
            throw Refusal(line: call.line, reason: "a link named \(shown(model)) to a file the model does not hold")
        }
        let at = try entry(model, call: call)
        tree.setEntry(at.directory, at.name, inode)
        record(
            .link, source, destination: model, .addEntry(directory: at.directory, name: at.name, inode: inode, isDirectory: false),
            call: call)
    }

    mutating func remove(_ call: TracedCall) throws(Refusal) {
        let at = call.name == "unlinkat"
        let path = resolved(call, call.string(at ? 1 : 0), base: at ? call.descriptor(0) : nil)
        guard let path, let model = modelPath(path) else {
            countOutside(call)
            return
        }
        let directory = call.name == "rmdir" || (at && argument(call, 2).contains("AT_REMOVEDIR"))
        let entry = try self.entry(model, call: call)
        guard tree.lookup(entry.directory, entry.name) != nil else {
            throw Refusal(
                line: call.line, reason: "\(call.name) of \(shown(model)), which the model does not hold (the recording missed its making)")
        }
        tree.setEntry(entry.directory, entry.name, nil)
        record(directory ? .rmdir : .unlink, model, .removeEntry(directory: entry.directory, name: entry.name), call: call)
    }

    mutating func makeDirectory(_ call: TracedCall) throws(Refusal) {
        let at = call.name == "mkdirat"
        guard let path = resolved(call, call.string(at ? 1 : 0), base: at ? call.descriptor(0) : nil), let model = modelPath(path) else {
            countOutside(call)
            return
        }
        let entry = try self.entry(model, call: call)
        let inode = newInode()
        tree.ensureNode(inode, directory: true)
        tree.setEntry(entry.directory, entry.name, inode)
        record(.mkdir, model, .addEntry(directory: entry.directory, name: entry.name, inode: inode, isDirectory: true), call: call)
    }

    mutating func duplicate(_ call: TracedCall, closeOnExec: Bool) {
        guard let old = call.descriptor(0)?.fd, let new = call.result.map(Int.init) else { return }
        // dup2 of a descriptor onto itself changes nothing (not even close-on-exec).
        if call.name == "dup2", old == new { return }
        let table = self.table(call.pid)
        table.files[new] = table.files[old]
        if closeOnExec { table.closeOnExec.insert(new) } else { table.closeOnExec.remove(new) }
    }

    mutating func fcntl(_ call: TracedCall) {
        let command = argument(call, 1)
        guard let fd = call.descriptor(0)?.fd else { return }
        let table = self.table(call.pid)
        switch command {
        case "F_DUPFD", "F_DUPFD_CLOEXEC":
            guard let new = call.result.map(Int.init) else { return }
            table.files[new] = table.files[fd]
            if command == "F_DUPFD_CLOEXEC" { table.closeOnExec.insert(new) } else { table.closeOnExec.remove(new) }
        case "F_SETFD":
            if argument(call, 2).contains("FD_CLOEXEC") { table.closeOnExec.insert(fd) } else { table.closeOnExec.remove(fd) }
        case "F_SETFL":
            table.files[fd]?.append = argument(call, 2).contains("O_APPEND")
        default: break
        }
    }

    /// `copy_file_range` and `sendfile`: the bytes copied, read from the model, written as a write.
    mutating func copy(_ call: TracedCall) throws(Refusal) {
        guard let result = call.result, result > 0 else { return }
        let count = Int(result)
        let ranged = call.name == "copy_file_range"
        guard let source = file(call, ranged ? 0 : 1), let target = file(call, ranged ? 2 : 0) else { return }
        let sourceOffset = Self.pointedOffset(argument(call, ranged ? 1 : 2))
        let targetOffset = ranged ? Self.pointedOffset(argument(call, 3)) : nil
        guard target.isOutput || target.inode != nil else {
            if sourceOffset == nil { source.position = source.position &+ count }
            countOutside(call)
            return
        }
        let start = sourceOffset ?? source.position
        if sourceOffset == nil { source.position = source.position &+ count }
        let bytes: ArraySlice<UInt8>
        if let inode = source.inode, let blob = tree.blob(of: inode) {
            guard start >= 0, start <= blob.count else { return }
            bytes = blob.bytes[start..<min(start + count, blob.count)]
        } else {
            bytes = try outsideBytes(source.path, start: start, count: count, call: call)[...]
        }
        if target.isOutput {
            output.append((operations.count, Array(bytes)))
            return
        }
        guard let written = target.inode else { return }
        let at = target.append ? (tree.blob(of: written)?.count ?? 0) : targetOffset ?? target.position
        try store(bytes, at: at, inode: written, path: display(target), call: call)
        if targetOffset == nil { target.position = at + bytes.count }
    }

    /// `count` bytes at `start` of a file outside the directory, read from disk: what the program
    /// copied, when it wrote that file at no time of its run (else its content then is unknown).
    func outsideBytes(_ path: String, start: Int, count: Int, call: TracedCall) throws(Refusal) -> [UInt8] {
        let refusal = Refusal(
            line: call.line,
            reason:
                "\(call.name) of \(count) bytes from \(path), outside the directory and written by the program: their content is not in the trace"
        )
        guard !writtenOutside.contains(path), start >= 0, count <= Self.largestFile else { throw refusal }
        guard let handle = FileHandle(forReadingAtPath: path) else { throw refusal }
        defer { try? handle.close() }
        guard (try? handle.seek(toOffset: UInt64(start))) != nil, let data = try? handle.read(upToCount: count), data.count == count else {
            throw Refusal(
                line: call.line, reason: "\(call.name) of \(count) bytes from \(path), outside the directory, which no longer holds them")
        }
        return [UInt8](data)
    }

    /// The offset an offset pointer argument holds (`[123]`, `[123 => 456]`), or nil for `NULL`.
    static func pointedOffset(_ text: Substring) -> Int? {
        guard text.hasPrefix("[") else { return nil }
        return Int(text.dropFirst().prefix { $0.isNumber })
    }

    mutating func map(_ call: TracedCall) throws(Refusal) {
        let protection = argument(call, 2)
        let flags = argument(call, 3)
        guard flags.contains("MAP_SHARED"), protection.contains("PROT_WRITE"), let file = file(call, 4), file.inode != nil,
            !file.isDirectory
        else { return }
        throw Refusal(
            line: call.line, reason: "a shared writable mapping of \(shown(display(file))): what is written through it is no system call")
    }
}
