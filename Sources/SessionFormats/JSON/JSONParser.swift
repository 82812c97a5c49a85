/// A strict JSON parser (RFC 8259) that reports the byte offset of the first error; or, salvaging
/// (`JSONSalvage`), keeps every complete value before the first error.
///
/// Containers are nested as deep as the reading browser's own parser allows (`maxDepth`), and no
/// deeper; the parser recurses only `treeDepth` levels, so hostile documents cannot exhaust the
/// stack: a container deeper than that is checked without recursion and kept as its bytes
/// (`JSONValue.verbatim`), its memory that of the bytes.
public struct JSONParser {
    let bytes: [UInt8]
    var offset = 0
    /// The deepest a container is built as a tree; deeper ones are kept verbatim.
    public static let treeDepth = 200
    /// Foundation's limit (`JSONDecoder`, `JSONSerialization`; swift-foundation's JSONScanner:
    /// `depth < 512` checked before each container opens, the outermost counted as 1): 512
    /// containers nest, the 513th is an error. What Firefox for iOS's windows are read with.
    public static let foundationDepth = 512
    /// Chromium's limit (base/json, `kAbsoluteMaxDepth`): what Chrome reads `Preferences` with.
    public static let chromiumDepth = 200
    /// The most containers that may nest (the outermost counted as 1); nil: no limit but the
    /// input's size, as SpiderMonkey's `JSON.parse` (an explicit stack, no depth check) reads.
    var maxDepth: Int? = JSONParser.foundationDepth
    /// Salvaging: a container meeting an error returns what it holds so far instead of throwing.
    private var salvaging = false
    /// Reading as JavaScript's `JSON.parse` does an escaped lone surrogate (`\ud83d` alone), which
    /// RFC 8259 leaves undefined: taken, as U+FFFD (a Swift string holds no lone surrogate).
    var takesLoneSurrogates = false
    /// The containers open at the current value, outermost first (kept only when salvaging).
    private var path: [JSONPathComponent] = []
    /// The first error met while salvaging, with the containers open there.
    private var damage: JSONSalvage.Damage?

    /// Parses a whole document; throws `FormatError.damaged` naming `file` and the offset.
    /// `maxDepth` is the reading browser's limit on nesting (nil: none).
    public static func parse(
        _ bytes: [UInt8], file: String, takingLoneSurrogates: Bool = false, maxDepth: Int? = JSONParser.foundationDepth
    ) throws(FormatError) -> JSONValue {
        var parser = JSONParser(bytes: bytes)
        parser.takesLoneSurrogates = takingLoneSurrogates
        parser.maxDepth = maxDepth
        do {
            parser.skipSpace()
            let value = try parser.value(depth: 0)
            parser.skipSpace()
            guard parser.offset == bytes.count else { throw parser.error("unexpected data after the document") }
            return value
        } catch let failure as Failure {
            throw .damaged(file: file, offset: failure.offset, reason: failure.reason)
        } catch {
            throw .damaged(file: file, offset: parser.offset, reason: "invalid JSON")
        }
    }

    /// Parses as much of `bytes` as is well formed: every complete value before the first error,
    /// each container open there closed after its last complete member.
    public static func salvage(
        _ bytes: [UInt8], takingLoneSurrogates: Bool = false, maxDepth: Int? = JSONParser.foundationDepth
    ) -> JSONSalvage {
        var parser = JSONParser(bytes: bytes)
        parser.salvaging = true
        parser.takesLoneSurrogates = takingLoneSurrogates
        parser.maxDepth = maxDepth
        parser.skipSpace()
        let value: JSONValue?
        do {
            value = try parser.value(depth: 0)
        } catch let failure as Failure {
            return JSONSalvage(value: nil, damage: .init(offset: failure.offset, reason: failure.reason, path: []))
        } catch {
            return JSONSalvage(value: nil, damage: .init(offset: parser.offset, reason: "invalid JSON", path: []))
        }
        if parser.damage == nil {
            parser.skipSpace()
            if parser.offset != bytes.count {
                parser.damage = .init(offset: parser.offset, reason: "unexpected data after the document", path: [])
            }
        }
        return JSONSalvage(value: value, damage: parser.damage)
    }

    /// Salvaging: a container stops at `failure`. The first failure is noted with the containers
    /// open where it was thrown (the path still holds the element or member being read); the path
    /// is then cut back to the stopping container's (`base` components).
    private mutating func stop(at failure: Failure, keeping base: Int) {
        if damage == nil { damage = .init(offset: failure.offset, reason: failure.reason, path: path) }
        path.removeLast(path.count - base)
    }

    struct Failure: Error {
        var offset: Int
        var reason: String
    }

    init(bytes: [UInt8]) { self.bytes = bytes }

    func error(_ reason: String) -> Failure { Failure(offset: offset, reason: reason) }

    mutating func skipSpace() {
        while offset < bytes.count {
            switch bytes[offset] {
            case 0x20, 0x09, 0x0A, 0x0D: offset += 1
            default: return
            }
        }
    }

    mutating func literal(_ text: String, _ value: JSONValue) throws -> JSONValue {
        let expected = Array(text.utf8)
        guard bytes.count - offset >= expected.count, Array(bytes[offset..<offset + expected.count]) == expected else {
            throw error("invalid literal")
        }
        offset += expected.count
        return value
    }

    /// The value here, inside `depth` containers.
    mutating func value(depth: Int) throws -> JSONValue {
        guard offset < bytes.count else { throw error("unexpected end of document") }
        let opening = bytes[offset] == UInt8(ascii: "[") || bytes[offset] == UInt8(ascii: "{")
        if opening {
            guard maxDepth.map({ depth < $0 }) ?? true else { throw error("nested too deeply") }
            if depth >= JSONParser.treeDepth { return try verbatim(depth: depth) }
        }
        switch bytes[offset] {
        case UInt8(ascii: "n"): return try literal("null", .null)
        case UInt8(ascii: "t"): return try literal("true", .bool(true))
        case UInt8(ascii: "f"): return try literal("false", .bool(false))
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "["):
            offset += 1
            var values: [JSONValue] = []
            let base = path.count
            do {
                skipSpace()
                if offset < bytes.count, bytes[offset] == UInt8(ascii: "]") {
                    offset += 1
                    return .array(values)
                }
                while true {
                    skipSpace()
                    if salvaging { path.append(.index(values.count)) }
                    values.append(try value(depth: depth + 1))
                    if salvaging {
                        path.removeLast()
                        // A container cut short inside the element: nothing after it is read.
                        if damage != nil { return .array(values) }
                    }
                    skipSpace()
                    guard offset < bytes.count else { throw error("unterminated array") }
                    if bytes[offset] == UInt8(ascii: ",") {
                        offset += 1
                        continue
                    }
                    if bytes[offset] == UInt8(ascii: "]") {
                        offset += 1
                        return .array(values)
                    }
                    throw error("expected ',' or ']'")
                }
            } catch let failure as Failure where salvaging {
                stop(at: failure, keeping: base)
                return .array(values)
            }
        case UInt8(ascii: "{"):
            offset += 1
            var members: [(String, JSONValue)] = []
            let base = path.count
            do {
                skipSpace()
                if offset < bytes.count, bytes[offset] == UInt8(ascii: "}") {
                    offset += 1
                    return .object(members)
                }
                while true {
                    skipSpace()
                    guard offset < bytes.count, bytes[offset] == UInt8(ascii: "\"") else { throw error("expected a key") }
                    let key = try string()
                    skipSpace()
                    guard offset < bytes.count, bytes[offset] == UInt8(ascii: ":") else { throw error("expected ':'") }
                    offset += 1
                    skipSpace()
                    if salvaging { path.append(.key(key)) }
                    members.append((key, try value(depth: depth + 1)))
                    if salvaging {
                        path.removeLast()
                        if damage != nil { return .object(members) }
                    }
                    skipSpace()
                    guard offset < bytes.count else { throw error("unterminated object") }
                    if bytes[offset] == UInt8(ascii: ",") {
                        offset += 1
                        continue
                    }
                    if bytes[offset] == UInt8(ascii: "}") {
                        offset += 1
                        return .object(members)
                    }
                    throw error("expected ',' or '}'")
                }
            } catch let failure as Failure where salvaging {
                stop(at: failure, keeping: base)
                return .object(members)
            }
        default:
            return try number()
        }
    }

    mutating func number() throws -> JSONValue {
        let start = offset
        if offset < bytes.count, bytes[offset] == UInt8(ascii: "-") { offset += 1 }
        func digits() -> Int {
            let begin = offset
            while offset < bytes.count, bytes[offset] >= 48, bytes[offset] <= 57 { offset += 1 }
            return offset - begin
        }
        let intStart = offset
        let intDigits = digits()
        guard intDigits > 0 else { throw Failure(offset: start, reason: "invalid value") }
        guard !(intDigits > 1 && bytes[intStart] == 48) else { throw Failure(offset: intStart, reason: "leading zero") }
        var isInteger = true
        if offset < bytes.count, bytes[offset] == UInt8(ascii: ".") {
            offset += 1
            isInteger = false
            guard digits() > 0 else { throw error("digits expected after '.'") }
        }
        if offset < bytes.count, bytes[offset] == UInt8(ascii: "e") || bytes[offset] == UInt8(ascii: "E") {
            offset += 1
            isInteger = false
            if offset < bytes.count, bytes[offset] == UInt8(ascii: "+") || bytes[offset] == UInt8(ascii: "-") { offset += 1 }
            guard digits() > 0 else { throw error("digits expected in exponent") }
        }
        // Inside a container, a number running to the end of salvaged bytes may have been cut short.
        if salvaging && offset == bytes.count && !path.isEmpty { throw error("number cut short") }
        if isInteger, intDigits <= 18 {
            // Up to 18 digits cannot overflow: summed here rather than through a String.
            var value: Int64 = 0
            for digit in bytes[intStart..<offset] { value = value * 10 + Int64(digit - 48) }
            return .int(bytes[start] == UInt8(ascii: "-") ? -value : value)
        }
        let text = String(decoding: bytes[start..<offset], as: UTF8.self)
        if isInteger, let value = Int64(text) { return .int(value) }
        guard let value = Double(text) else { throw Failure(offset: start, reason: "invalid number") }
        return .double(value)
    }

    /// The string of `bytes[start..<end]`, nil when they are not well-formed UTF-8 (RFC 3629: no
    /// overlong forms, no surrogates, nothing past U+10FFFF). Checked here and decoded from the
    /// buffer directly: the standard library's generic validation over an array slice costs more
    /// than the parsing around it.
    private func text(_ start: Int, _ end: Int) -> String? {
        bytes.withUnsafeBufferPointer { buffer -> String? in
            let run = UnsafeBufferPointer(rebasing: buffer[start..<end])
            guard JSONParser.isValidUTF8(run) else { return nil }
            return String(decoding: run, as: UTF8.self)
        }
    }

    /// Whether `run` is well-formed UTF-8.
    package static func isValidUTF8(_ run: UnsafeBufferPointer<UInt8>) -> Bool {
        var index = 0
        let count = run.count
        while index < count {
            let lead = run[index]
            if lead < 0x80 {
                index += 1
                continue
            }
            let length: Int
            var low: UInt8 = 0x80
            var high: UInt8 = 0xBF
            switch lead {
            case 0xC2...0xDF: length = 2
            case 0xE0:
                length = 3
                low = 0xA0
            case 0xE1...0xEC, 0xEE...0xEF: length = 3
            case 0xED:
                length = 3
                high = 0x9F
            case 0xF0:
                length = 4
                low = 0x90
            case 0xF1...0xF3: length = 4
            case 0xF4:
                length = 4
                high = 0x8F
            default: return false
            }
            guard count - index >= length else { return false }
            // The second byte's range depends on the lead; the others are any continuation byte.
            let second = run[index + 1]
            guard second >= low, second <= high else { return false }
            var next = index + 2
            while next < index + length {
                guard run[next] & 0xC0 == 0x80 else { return false }
                next += 1
            }
            index += length
        }
        return true
    }

    private mutating func hex4() throws -> UInt32 {
        guard bytes.count - offset >= 4 else { throw error("truncated \\u escape") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[offset]
            let digit: UInt8
            switch byte {
            case 48...57: digit = byte - 48
            case 65...70: digit = byte - 55
            case 97...102: digit = byte - 87
            default: throw error("invalid \\u escape")
            }
            value = value << 4 | UInt32(digit)
            offset += 1
        }
        return value
    }

    mutating func string() throws -> String {
        offset += 1
        var runStart = offset
        var out = ""
        func flushRun(_ end: Int) throws {
            guard runStart < end else { return }
            guard let text = text(runStart, end) else { throw Failure(offset: runStart, reason: "invalid UTF-8 in string") }
            out += text
        }
        while true {
            guard offset < bytes.count else { throw error("unterminated string") }
            let byte = bytes[offset]
            if byte == UInt8(ascii: "\"") {
                if out.isEmpty {
                    // No escape met: the run is the whole string.
                    guard let text = text(runStart, offset) else {
                        throw Failure(offset: runStart, reason: "invalid UTF-8 in string")
                    }
                    offset += 1
                    return text
                }
                try flushRun(offset)
                offset += 1
                return out
            }
            if byte < 0x20 { throw error("control character in string") }
            if byte != UInt8(ascii: "\\") {
                offset += 1
                continue
            }
            try flushRun(offset)
            offset += 1
            guard offset < bytes.count else { throw error("unterminated escape") }
            let escape = bytes[offset]
            offset += 1
            var scalar: Unicode.Scalar
            switch escape {
            case UInt8(ascii: "\""): scalar = "\""
            case UInt8(ascii: "\\"): scalar = "\\"
            case UInt8(ascii: "/"): scalar = "/"
            case UInt8(ascii: "b"): scalar = "\u{08}"
            case UInt8(ascii: "f"): scalar = "\u{0C}"
            case UInt8(ascii: "n"): scalar = "\n"
            case UInt8(ascii: "r"): scalar = "\r"
            case UInt8(ascii: "t"): scalar = "\t"
            case UInt8(ascii: "u"):
                var code = try hex4()
                if (0xD800...0xDBFF).contains(code) {
                    let high = offset
                    if bytes.count - offset >= 6, bytes[offset] == UInt8(ascii: "\\"), bytes[offset + 1] == UInt8(ascii: "u") {
                        offset += 2
                        let low = try hex4()
                        if (0xDC00...0xDFFF).contains(low) {
                            code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                        } else if takesLoneSurrogates {
                            // The high surrogate alone; the escape after it is read on its own.
                            offset = high
                            code = 0xFFFD
                        } else {
                            throw error("unpaired surrogate")
                        }
                    } else if takesLoneSurrogates {
                        code = 0xFFFD
                    } else {
                        throw error("unpaired surrogate")
                    }
                }
                if takesLoneSurrogates, (0xDC00...0xDFFF).contains(code) { code = 0xFFFD }
                guard let value = Unicode.Scalar(code) else { throw error("unpaired surrogate") }
                scalar = value
            default: throw Failure(offset: offset - 1, reason: "invalid escape")
            }
            out.unicodeScalars.append(scalar)
            runStart = offset
        }
    }
}
