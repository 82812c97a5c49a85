/// The pieces of one line of `strace -xx -y` output: its arguments split at the commas between
/// them, and the values they print (strings and paths as `\xHH` escapes, descriptors with their
/// paths as `3<\x2f...>`).
enum StraceText {
    /// The arguments of a call, split at the commas outside strings, brackets, braces, parentheses
    /// and path annotations, each trimmed.
    static func arguments(_ text: Substring) -> [Substring] {
        var parts: [Substring] = []
        var depth = 0
        var inString = false
        var escaped = false
        var start = text.startIndex
        var index = text.startIndex
        while index < text.endIndex {
            let character = text[index]
            if inString {
                if escaped {
                    escaped = false
                } else if character == "\\" {
                    escaped = true
                } else if character == "\"" {
                    inString = false
                }
            } else {
                switch character {
                case "\"": inString = true
                case "(", "[", "{", "<": depth += 1
                case ")", "]", "}", ">": depth = max(depth - 1, 0)
                case "," where depth == 0:
                    parts.append(trimmed(text[start..<index]))
                    start = text.index(after: index)
                default: break
                }
            }
            index = text.index(after: index)
        }
        let last = trimmed(text[start..<text.endIndex])
        if !last.isEmpty || !parts.isEmpty { parts.append(last) }
        return parts
    }

    /// `text` without the spaces around it.
    static func trimmed(_ text: Substring) -> Substring {
        var start = text.startIndex
        var end = text.endIndex
        while start < end, text[start] == " " { start = text.index(after: start) }
        while end > start, text[text.index(before: end)] == " " { end = text.index(before: end) }
        return text[start..<end]
    }

    /// The bytes of an escaped string as strace prints it (`\xHH`, and the C escapes strace uses
    /// without `-xx`), without its quotes; nil when `text` is no quoted string.
    static func string(_ text: Substring) -> [UInt8]? {
        var text = text
        if text.hasSuffix("...") { text = text.dropLast(3) }
        guard text.count >= 2, text.first == "\"", text.last == "\"" else { return nil }
        return unescape(text.dropFirst().dropLast())
    }

    /// The bytes `\xHH`, `\n`, `\t`, `\\`, `\"` and octal escapes stand for, the rest as UTF-8.
    static func unescape(_ text: Substring) -> [UInt8] {
        let utf8 = Array(text.utf8)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(utf8.count / 4)
        var index = 0
        func hex(_ byte: UInt8) -> UInt8? {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
            default: nil
            }
        }
        while index < utf8.count {
            let byte = utf8[index]
            guard byte == UInt8(ascii: "\\"), index + 1 < utf8.count else {
                bytes.append(byte)
                index += 1
                continue
            }
            let next = utf8[index + 1]
            switch next {
            case UInt8(ascii: "x"):
                if index + 3 < utf8.count, let high = hex(utf8[index + 2]), let low = hex(utf8[index + 3]) {
                    bytes.append(high << 4 | low)
                    index += 4
                    continue
                }
                bytes.append(next)
            case UInt8(ascii: "n"): bytes.append(0x0A)
            case UInt8(ascii: "t"): bytes.append(0x09)
            case UInt8(ascii: "r"): bytes.append(0x0D)
            case UInt8(ascii: "v"): bytes.append(0x0B)
            case UInt8(ascii: "f"): bytes.append(0x0C)
            case UInt8(ascii: "0")...UInt8(ascii: "7"):
                var value = 0
                var length = 0
                while length < 3, index + 1 + length < utf8.count,
                    (UInt8(ascii: "0")...UInt8(ascii: "7")).contains(utf8[index + 1 + length])
                {
                    value = value * 8 + Int(utf8[index + 1 + length] - UInt8(ascii: "0"))
                    length += 1
                }
                bytes.append(UInt8(truncatingIfNeeded: value))
                index += 1 + length
                continue
            default: bytes.append(next)
            }
            index += 2
        }
        return bytes
    }

    /// A descriptor argument or result as `-y` prints it: its number (nil for `AT_FDCWD`) and the
    /// path of what it is open on, when printed.
    /// A file no longer named anywhere has its path followed by ` (deleted)` (strace 5.19 and
    /// later print `(deleted)` after the closing bracket, earlier ones inside it).
    static func descriptor(_ text: Substring) -> (fd: Int?, path: String?)? {
        var text = text
        var deleted = false
        if text.hasSuffix(">(deleted)") {
            text = text.dropLast("(deleted)".count)
            deleted = true
        }
        var number = text
        var path: String?
        if let open = text.firstIndex(of: "<"), text.last == ">" {
            number = text[text.startIndex..<open]
            path = String(decoding: unescape(text[text.index(after: open)..<text.index(before: text.endIndex)]), as: UTF8.self)
            if deleted, let named = path, !named.hasSuffix(" (deleted)") { path = named + " (deleted)" }
        }
        if number == "AT_FDCWD" { return (nil, path) }
        guard let fd = Int(number) else { return nil }
        return (fd, path)
    }

    /// An integer argument: decimal, `0x` hexadecimal or octal with a leading 0.
    static func integer(_ text: Substring) -> Int64? {
        if text.hasPrefix("0x") { return Int64(text.dropFirst(2), radix: 16) }
        if text.count > 1, text.hasPrefix("0"), text.allSatisfy({ $0.isNumber }) { return Int64(text.dropFirst(), radix: 8) }
        return Int64(text)
    }

    /// The names of a flags argument (`O_WRONLY|O_CREAT|O_TRUNC`).
    static func flags(_ text: Substring) -> Set<Substring> {
        Set(text.split(separator: "|").map { trimmed($0) })
    }
}
