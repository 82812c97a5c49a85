import SessionFormats

#if canImport(Glibc)
    import Glibc
#endif

/// The keyed-archive decoder on its own, structure-aware: the input is a list of edits to the
/// object table of a real session.plist (replace an object, copy one, point a reference
/// elsewhere), so that mutations keep the archive mostly well-formed and reach the decoder's
/// deeper rules (classes, UIDs, cycles, wrapped scalars) that byte mutations of the binary
/// format rarely get past the plist reader to.
enum KeyedArchiveFuzz {
    /// The parsed fixtures edits start from.
    static let bases: [BinaryPlist] = {
        let fixtures = FuzzPaths.repository + "/Fixtures/gallery"
        let names = [
            "legacy-healthy/Sessions/6A1E4C2B-9D0F-4B7A-8E3C-2F5D7B9A1C0E/session.plist",
            "backup-present/Backups/6A1E4C2B-9D0F-4B7A-8E3C-2F5D7B9A1C0E/session.backup.plist",
            "legacy-pinned-not-prefix/Sessions/6A1E4C2B-9D0F-4B7A-8E3C-2F5D7B9A1C0E/session.plist"
        ]
        let plists = names.compactMap { FuzzPaths.read(fixtures + "/" + $0).flatMap { try? BinaryPlistReader.read($0) } }
        if plists.isEmpty { FuzzPaths.fail("keyed-archive: no session.plist fixture under \(fixtures)") }
        return plists
    }()

    /// Strings the edits may put in: every string of the bases (keys, class names, values) and a few more.
    static let vocabulary: [String] = {
        var strings = Set([
            "$null", "NSKeyedArchiver", "SessionIOS", "sessionWindows", "NSDictionary", "NSMutableSet",
            "NS.keys", "NS.objects", "NS.string", "NS.data", "NS.bytes", "$0", "PinnedState",
            "OpenerIndex", "OpenerNavigationIndex", "httpHeaders", "certificatePolicyManager",
            "currentNavigationIndex", "SessionTabGroup", "kTabGroupIdKey", "kRangeStartKey"
        ])
        for base in bases { for object in base.objects { if case .string(let text) = object { strings.insert(text) } } }
        return strings.sorted()
    }()

    @Sendable static func run(_ bytes: [UInt8]) {
        var input = EditStream(bytes)
        var plist = bases[input.below(bases.count)]
        let edits = input.below(12)
        for _ in 0...edits { apply(&input, to: &plist) }
        guard let window = try? LegacySessionCodec.decodeWindow(plist: plist) else { return }
        // Whatever decodes must encode to a file that reads back to the same tabs.
        let again = try? LegacySessionCodec.decodeWindow(LegacySessionCodec.encode(window))
        if again?.tabs.count != window.tabs.count || again?.groups.count != window.groups.count {
            fatalError("keyed archive does not round-trip through the writer")
        }
    }

    private static func apply(_ input: inout EditStream, to plist: inout BinaryPlist) {
        let count = plist.objects.count
        let target = input.below(count + 1)
        var object: PlistObject
        switch input.below(10) {
        case 0: object = .string(vocabulary[input.below(vocabulary.count)])
        case 1: object = .uid(UInt64(input.below(count + 3)))
        case 2: object = .integer(input.integer())
        case 3: object = .bool(input.below(2) == 1)
        case 4: object = .data(ArraySlice((0..<input.below(24)).map { _ in UInt8(truncatingIfNeeded: input.below(256)) }))
        case 5: object = .array((0..<input.below(6)).map { _ in input.below(count + 2) })
        case 6:
            let pairs = input.below(6)
            object = .dictionary(
                keys: (0..<pairs).map { _ in input.below(count + 2) }, values: (0..<pairs).map { _ in input.below(count + 2) })
        case 7: object = plist[input.below(count)]
        case 8:
            // Re-point one reference of an existing container.
            object = plist[target]
            let to = input.below(count + 2)
            switch object {
            case .array(var refs) where !refs.isEmpty:
                refs[input.below(refs.count)] = to
                object = .array(refs)
            case .dictionary(let keys, var values) where !values.isEmpty:
                values[input.below(values.count)] = to
                object = .dictionary(keys: keys, values: values)
            case .uid: object = .uid(UInt64(to))
            default: break
            }
        default: object = [.null, .real(-1.5), .date(0), .largeInteger([1, 2]), .set([0]), .unread][input.below(6)]
        }
        if target == count {
            plist.objects.append(object)
            plist.offsets.append(plist.offsets.last.map { $0 + 1 } ?? 8)
        } else {
            plist.objects[target] = object
        }
    }
}

/// Reads small numbers from the fuzzer's bytes; zeros once they run out.
struct EditStream {
    private let bytes: [UInt8]
    private var index = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    private mutating func byte() -> UInt8 {
        defer { index += 1 }
        return index < bytes.count ? bytes[index] : 0
    }

    /// A number in 0..<bound (two bytes when the bound needs them).
    mutating func below(_ bound: Int) -> Int {
        guard bound > 1 else { return 0 }
        let raw = bound > 256 ? Int(byte()) << 8 | Int(byte()) : Int(byte())
        return raw % bound
    }

    /// An integer: small ones often, extremes sometimes.
    mutating func integer() -> Int64 {
        switch byte() % 4 {
        case 0: return Int64(Int8(bitPattern: byte()))
        case 1: return [Int64.min, Int64.max, Int64(Int32.max) + 1, -1, 0][Int(byte()) % 5]
        default: return Int64(byte()) << 8 | Int64(byte())
        }
    }
}

/// Where the repository is (the fuzzer is built from it), and file reading for fixtures.
enum FuzzPaths {
    static let repository: String = {
        var parts = "\(#filePath)".split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(4)  // Fuzz/Sources/SessionFuzz/<file>
        return parts.joined(separator: "/")
    }()

    static func read(_ path: String) -> [UInt8]? {
        try? ReadableTree.readFile(path)
    }

    static func fail(_ message: String) -> Never {
        _ = (message + "\n").withCString { write(2, $0, strlen($0)) }
        exit(2)
    }
}
