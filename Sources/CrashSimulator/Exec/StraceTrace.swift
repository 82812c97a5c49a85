/// One system call of a traced program as `strace -f -xx -y -e write=all` printed it: the process,
/// the call and its arguments, what it returned, and the bytes it wrote (from strace's dump).
struct TracedCall: Sendable {
    /// The process (or thread) that made it.
    var pid: Int
    var name: String
    /// The arguments, as printed (see `StraceText`).
    var arguments: [Substring]
    /// What it returned (nil for `?`), and the path `-y` printed beside a descriptor it returned.
    var result: Int64?
    var resultPath: String?
    /// The errno name when it failed (`ENOENT`).
    var error: String?
    /// The bytes written, from the dump that follows a write (each buffer of a writev in turn).
    var written: [UInt8] = []
    /// The line of the trace it ends on, counted from 1.
    var line: Int

    /// Whether it returned without an error.
    var succeeded: Bool { error == nil && result != nil }

    /// The descriptor argument at `index` (nil for `AT_FDCWD`), with its path when printed.
    func descriptor(_ index: Int) -> (fd: Int?, path: String?)? {
        index < arguments.count ? StraceText.descriptor(arguments[index]) : nil
    }

    /// The string argument at `index`, decoded.
    func string(_ index: Int) -> [UInt8]? {
        index < arguments.count ? StraceText.string(arguments[index]) : nil
    }

    /// The integer argument at `index`.
    func integer(_ index: Int) -> Int64? {
        index < arguments.count ? StraceText.integer(arguments[index]) : nil
    }
}

/// The calls of a whole trace, in the order they completed: a call strace printed in two halves
/// (`<unfinished ...>`, then `<... name resumed>`) joined, the dump lines after a call given to it.
enum StraceTrace {
    /// Why a trace could not be read.
    struct Damage: Error, Sendable {
        var line: Int
        var reason: String
    }

    /// Parses `text`, the output of `strace -f -o FILE` (each line starting with its process id).
    static func parse(_ text: String) throws(Damage) -> [TracedCall] {
        var calls: [TracedCall] = []
        var unfinished: [Int: Substring] = [:]
        var number = 0
        // Dump lines belong to the call on the line just before them.
        var dumpTarget: Int?
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            number += 1
            if line.isEmpty { continue }
            if line.hasPrefix(" | ") {
                // `| 00000  68 65 6c ...  hello |`: up to 16 hex bytes after the offset.
                guard let target = dumpTarget else { throw Damage(line: number, reason: "a dump of written bytes follows no call") }
                calls[target].written += dumpBytes(line)
                continue
            }
            if line.hasPrefix(" * ") { continue }
            dumpTarget = nil
            var rest = StraceText.trimmed(line[...])
            var pid = 0
            if let space = rest.firstIndex(of: " "), let value = Int(rest[rest.startIndex..<space]) {
                pid = value
                rest = StraceText.trimmed(rest[space...])
            }
            if rest.hasPrefix("+++") || rest.hasPrefix("---") { continue }
            if rest.hasSuffix("<unfinished ...>") {
                unfinished[pid] = StraceText.trimmed(rest.dropLast("<unfinished ...>".count))
                continue
            }
            if rest.hasPrefix("<... ") {
                // A thread that calls execve resumes as the process's leader: its half is found by name.
                let afterPrefix = rest.index(rest.startIndex, offsetBy: 5)
                guard let end = rest[afterPrefix...].range(of: " resumed>") else { continue }
                let name = rest[afterPrefix..<end.lowerBound]
                let owner =
                    unfinished[pid].map { _ in pid }
                    ?? unfinished.first { $0.value.hasPrefix(name + "(") }?.key
                guard let owner, let start = unfinished.removeValue(forKey: owner) else { continue }
                let tail = rest[end.upperBound...]
                rest = Substring(String(start) + (tail.hasPrefix(",") || tail.hasPrefix(")") ? "" : " ") + String(tail))
            }
            if let call = parseCall(rest, pid: pid, line: number) {
                calls.append(call)
                dumpTarget = calls.count - 1
            }
        }
        return calls
    }

    /// One whole call, `name(arguments) = result`; nil for what is not one (a call strace cut
    /// off as its process ended).
    static func parseCall(_ text: Substring, pid: Int, line: Int) -> TracedCall? {
        guard let open = text.firstIndex(of: "(") else { return nil }
        let name = String(text[text.startIndex..<open])
        guard !name.isEmpty, name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }) else { return nil }
        // The parenthesis that closes the arguments: the last `)` followed by spaces (strace pads a
        // short call to align its results) and `= `.
        guard let (close, resultStart) = Self.resultMark(text) else { return nil }
        let arguments = StraceText.arguments(text[text.index(after: open)..<close])
        var result = text[resultStart...]
        var error: String?
        if let space = result.firstIndex(of: " ") {
            let after = StraceText.trimmed(result[space...])
            if after.hasPrefix("E") { error = String(after.prefix { $0 != " " }) }
            result = result[result.startIndex..<space]
        }
        var value: Int64?
        var path: String?
        if result != "?" {
            if let descriptor = StraceText.descriptor(result), let fd = descriptor.fd {
                value = Int64(fd)
                path = descriptor.path
            } else {
                value = StraceText.integer(result)
            }
        }
        // A failure whose errno strace cannot name (`= -1 (errno 531)`) is a failure all the same.
        if let value, value < 0, error == nil { error = "errno" }
        return TracedCall(pid: pid, name: name, arguments: arguments, result: value, resultPath: path, error: error, line: line)
    }

    /// Where the arguments of a call end (its closing parenthesis) and its result starts: the last
    /// `)`, spaces, `= ` of the line.
    static func resultMark(_ text: Substring) -> (close: Substring.Index, result: Substring.Index)? {
        var search = text.endIndex
        while let equals = text[text.startIndex..<search].range(of: "= ", options: .backwards) {
            var before = equals.lowerBound
            var spaces = 0
            while before > text.startIndex, text[text.index(before: before)] == " " {
                before = text.index(before: before)
                spaces += 1
            }
            if spaces > 0, before > text.startIndex, text[text.index(before: before)] == ")" {
                return (text.index(before: before), equals.upperBound)
            }
            search = equals.lowerBound
        }
        return nil
    }

    /// The bytes of one dump line (` | 00000  68 65 6c 6c  ...  hell |`).
    static func dumpBytes(_ line: Substring) -> [UInt8] {
        // The offset, two spaces, then 16 columns of `hh ` with an extra space after the eighth.
        let body = line.dropFirst(3).drop { $0 != " " }
        var bytes: [UInt8] = []
        var columns = body.dropFirst(2).prefix(16 * 3 + 1)
        while !columns.isEmpty {
            columns = columns.drop { $0 == " " }
            let pair = columns.prefix(2)
            guard pair.count == 2, let byte = UInt8(pair, radix: 16) else { break }
            bytes.append(byte)
            columns = columns.dropFirst(2)
        }
        return bytes
    }
}
