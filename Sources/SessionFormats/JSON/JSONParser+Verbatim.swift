extension JSONParser {
    /// Checks that `bytes` are one well-formed JSON document, as `parse` would, without building
    /// it (no memory beyond a bit per level of nesting); throws `FormatError.damaged` as it does.
    public static func check(
        _ bytes: [UInt8], file: String, takingLoneSurrogates: Bool = false, maxDepth: Int? = JSONParser.foundationDepth
    ) throws(FormatError) {
        var parser = JSONParser(bytes: bytes)
        parser.takesLoneSurrogates = takingLoneSurrogates
        parser.maxDepth = maxDepth
        do {
            parser.skipSpace()
            guard parser.offset < bytes.count else { throw parser.error("unexpected end of document") }
            if bytes[parser.offset] == UInt8(ascii: "[") || bytes[parser.offset] == UInt8(ascii: "{") {
                guard maxDepth.map({ $0 > 0 }) ?? true else { throw parser.error("nested too deeply") }
                _ = try parser.verbatim(depth: 0, keeping: false)
            } else {
                _ = try parser.value(depth: 0)
            }
            parser.skipSpace()
            guard parser.offset == bytes.count else { throw parser.error("unexpected data after the document") }
        } catch let failure as Failure {
            throw .damaged(file: file, offset: failure.offset, reason: failure.reason)
        } catch {
            throw .damaged(file: file, offset: parser.offset, reason: "invalid JSON")
        }
    }

    /// The container opening here, inside `depth` containers (at least `treeDepth`), checked as
    /// the parser checks every value but with a stack of its own instead of recursion, and kept
    /// as its bytes (`keeping`; else `.null` is returned). Containers inside it count towards
    /// `maxDepth` as if they were built.
    mutating func verbatim(depth: Int, keeping: Bool = true) throws -> JSONValue {
        let start = offset
        /// For each container open inside the value, outermost first: whether it is an object.
        var objects: [Bool] = []
        /// What may come next.
        enum Expect { case value, valueOrClose, key, keyOrClose, commaOrClose }
        var expect = Expect.value
        while true {
            skipSpace()
            guard offset < bytes.count else {
                throw error(
                    objects.last == true ? "unterminated object" : objects.isEmpty ? "unexpected end of document" : "unterminated array")
            }
            let byte = bytes[offset]
            let closing = objects.last == true ? UInt8(ascii: "}") : UInt8(ascii: "]")
            let closes: Bool
            switch expect {
            case .valueOrClose, .keyOrClose, .commaOrClose: closes = byte == closing && !objects.isEmpty
            case .value, .key: closes = false
            }
            if closes {
                offset += 1
                objects.removeLast()
                if objects.isEmpty { return keeping ? .verbatim(Array(bytes[start..<offset])) : .null }
                expect = .commaOrClose
                continue
            }
            switch expect {
            case .value, .valueOrClose:
                if byte == UInt8(ascii: "[") || byte == UInt8(ascii: "{") {
                    guard maxDepth.map({ depth + objects.count < $0 }) ?? true else { throw error("nested too deeply") }
                    offset += 1
                    objects.append(byte == UInt8(ascii: "{"))
                    expect = byte == UInt8(ascii: "{") ? .keyOrClose : .valueOrClose
                    continue
                }
                switch byte {
                case UInt8(ascii: "n"): _ = try literal("null", .null)
                case UInt8(ascii: "t"): _ = try literal("true", .bool(true))
                case UInt8(ascii: "f"): _ = try literal("false", .bool(false))
                case UInt8(ascii: "\""): _ = try string()
                default: _ = try number()
                }
                expect = .commaOrClose
            case .key, .keyOrClose:
                guard byte == UInt8(ascii: "\"") else { throw error("expected a key") }
                _ = try string()
                skipSpace()
                guard offset < bytes.count, bytes[offset] == UInt8(ascii: ":") else { throw error("expected ':'") }
                offset += 1
                expect = .value
            case .commaOrClose:
                guard byte == UInt8(ascii: ",") else {
                    throw error(objects.last == true ? "expected ',' or '}'" : "expected ',' or ']'")
                }
                offset += 1
                expect = objects.last == true ? .key : .value
            }
        }
    }
}
