import Archive
import Foundation
import SessionFormats
import TestSupport
import Testing

/// Every reading command on hostile input: damaged copies of the healthy profile (seeded
/// truncations and bit flips), and documents built to exhaust a reader (deep nesting, cycles, huge
/// declared counts and lengths). Each run must end within its time limit with a status of the
/// contract (0, 1, 65, 66), at most one stderr line `sessionctl: ...`, no trap, and must leave
/// its input byte-identical.
@Suite struct HostileInputCommandTests {
    /// The longest any one command may take here; a hang fails instead of blocking the suite.
    static let timeLimit = 20.0
    static let healthy = CLI.path("Fixtures/profiles/healthy")

    /// Runs `sessionctl arguments` and checks everything the contract promises for bad input.
    @discardableResult
    static func runChecked(_ arguments: [String], _ label: String, stdin: Data? = nil) throws -> CLIResult {
        let result = try CLI.run(arguments, stdin: stdin, timeout: timeLimit)
        let command = "\(label): sessionctl \(arguments.joined(separator: " "))"
        #expect(!result.timedOut, "\(command): still running after \(timeLimit) s, terminated")
        #expect([0, 1, 65, 66].contains(result.status), "\(command): status \(result.status), \(result.stderr)")
        #expect(!result.stderr.contains("Fatal error") && !result.stderr.contains("Stack dump"), "\(command): \(result.stderr)")
        let lines = result.stderr.split(separator: "\n", omittingEmptySubsequences: false).filter { !$0.isEmpty }
        #expect(lines.count <= 1 && lines.allSatisfy { $0.hasPrefix("sessionctl: ") }, "\(command): \(result.stderr)")
        return result
    }

    /// Every entry under `root` (directories included) with the bytes of each file.
    static func snapshot(_ root: String) -> [String: Data] {
        var entries: [String: Data] = [:]
        let enumerator = FileManager.default.enumerator(atPath: root)
        while let path = enumerator?.nextObject() as? String {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: root + "/" + path, isDirectory: &isDirectory) else { continue }
            entries[path] = isDirectory.boolValue ? Data("<directory>".utf8) : FileManager.default.contents(atPath: root + "/" + path)
        }
        return entries
    }

    /// Runs every reading command on `input` (a damaged profile, or one hostile file) and checks
    /// that none of them changed a byte under `root`.
    static func runReaders(on input: String, root: String, scratch: String, _ label: String) throws {
        let before = snapshot(root)
        try runChecked(["inspect", input], label)
        try runChecked(["inspect", input, "--history", "--format", "json"], label)
        try runChecked(["validate", input], label)
        try runChecked(["diff", healthy, input, "--history"], label)
        try runChecked(["compress", input, "-o", scratch + "/out.tar.gz"], label)
        try? FileManager.default.removeItem(atPath: scratch + "/out.tar.gz")
        #expect(snapshot(root) == before, "\(label): a command changed its input")
    }

    /// Truncates or flips bits in one file of `profile`; returns what it did.
    static func damage(_ profile: String, _ random: inout SplitMix64) throws -> String {
        let files = snapshot(profile).filter { $0.value != Data("<directory>".utf8) }.keys.sorted()
        let path = files[random.below(files.count)]
        let url = URL(fileURLWithPath: profile + "/" + path)
        var bytes = [UInt8](try Data(contentsOf: url))
        if random.below(2) == 0 {
            let length = random.below(bytes.count)
            try Data(bytes[..<length]).write(to: url)
            return "\(path) cut to \(length) bytes"
        }
        var flipped: [Int] = []
        for _ in 0..<(1 + random.below(6)) where !bytes.isEmpty {
            let bit = random.below(bytes.count * 8)
            bytes[bit / 8] ^= UInt8(1 << (bit % 8))
            flipped.append(bit)
        }
        try Data(bytes).write(to: url)
        return "\(path) bits \(flipped) flipped"
    }

    @Test(arguments: 0..<10)
    func damagedProfile(seed: Int) throws {
        let scratch = try CLI.temporaryDirectory("hostile")
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let profile = scratch + "/profile"
        try FileManager.default.copyItem(atPath: Self.healthy, toPath: profile)
        var random = SplitMix64(seed: UInt64(seed) &* 104_729 &+ 3)
        var done: [String] = []
        for _ in 0..<(1 + random.below(3)) { done.append(try Self.damage(profile, &random)) }
        try Self.runReaders(on: profile, root: profile, scratch: scratch, "seed \(seed): \(done.joined(separator: "; "))")
    }

    /// A copy of the healthy profile with one session's files replaced by hostile bytes.
    static func profile(metadata: [UInt8]? = nil, tabData: [UInt8]? = nil, in scratch: String) throws -> String {
        let profile = scratch + "/profile"
        try FileManager.default.copyItem(atPath: Self.healthy, toPath: profile)
        let session = profile + "/SessionStorage/E9D8C7B6-A5F4-4321-8765-0FEDCBA98765"
        if let metadata { try Data(metadata).write(to: URL(fileURLWithPath: session + "/session_metadata.pb")) }
        if let tabData { try Data(tabData).write(to: URL(fileURLWithPath: session + "/00000014/data.pb")) }
        return profile
    }

    /// A protobuf varint.
    static func varint(_ value: UInt64) -> [UInt8] {
        var value = value
        var bytes: [UInt8] = []
        while value >= 0x80 {
            bytes.append(UInt8(value & 0x7f) | 0x80)
            value >>= 7
        }
        return bytes + [UInt8(value)]
    }

    @Test func lengthDelimitedFieldDeclaringTwoGigabytes() throws {
        let scratch = try CLI.temporaryDirectory("hostile")
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        // Field 1 (the tab list), wire type 2, declaring 2^31 bytes, followed by a few.
        let huge = [0x0a] + Self.varint(1 << 31) + [0x08, 0x01, 0x10, 0x02]
        let profile = try Self.profile(metadata: huge, tabData: huge, in: scratch)
        try Self.runReaders(on: profile, root: profile, scratch: scratch, "2^31-byte field")
        let file = profile + "/SessionStorage/E9D8C7B6-A5F4-4321-8765-0FEDCBA98765/session_metadata.pb"
        let result = try Self.runChecked(["inspect", file], "2^31-byte field, file alone")
        #expect(result.status == 65, "\(result.stderr)")
    }

    @Test func deeplyNestedJSONForImport() throws {
        let scratch = try CLI.temporaryDirectory("hostile")
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let depth = 200_000
        let documents = [
            String(repeating: "[", count: depth) + String(repeating: "]", count: depth),
            "{\"schema\":\"sessionctl.inspect/1\",\"sessions\":" + String(repeating: "{\"a\":", count: depth) + "1"
                + String(repeating: "}", count: depth) + "}",
            String(repeating: "[", count: depth)
        ]
        for (index, document) in documents.enumerated() {
            let file = scratch + "/deep\(index).json"
            try Data(document.utf8).write(to: URL(fileURLWithPath: file))
            let before = Self.snapshot(scratch)
            let result = try Self.runChecked(["import", file, "--out", scratch + "/out\(index)"], "nested JSON \(index)")
            #expect(result.status == 65, "nested JSON \(index): \(result.stderr)")
            #expect(Self.snapshot(scratch).filter { !$0.key.hasPrefix("out") } == before.filter { !$0.key.hasPrefix("out") })
            let piped = try Self.runChecked(
                ["import", "-", "--out", scratch + "/piped\(index)"], "nested JSON \(index) on stdin", stdin: Data(document.utf8))
            #expect(piped.status == 65, "nested JSON \(index) on stdin: \(piped.stderr)")
        }
    }

    /// A legacy profile (`Sessions/<id>/session.plist`) holding `plist`.
    static func legacyProfile(_ plist: [UInt8], in scratch: String) throws -> String {
        let profile = scratch + "/legacy"
        let directory = profile + "/Sessions/6A1E4C2B-9D0F-4B7A-8E3C-2F5D7B9A1C0E"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try Data(plist).write(to: URL(fileURLWithPath: directory + "/session.plist"))
        return profile
    }

    /// A keyed archive whose window's `sessions` array holds the window itself.
    static let cyclicArchive: [UInt8] = BinaryPlistWriter.encode(
        .dictionary([
            "$archiver": .string("NSKeyedArchiver"),
            "$version": .integer(100_000),
            "$top": .dictionary(["root": .uid(1)]),
            "$objects": .array([
                .string("$null"),
                .dictionary(["$class": .uid(2), "sessions": .uid(3), "selectedIndex": .integer(0)]),
                .dictionary([
                    "$classname": .string("SessionWindowIOS"), "$classes": .array([.string("SessionWindowIOS"), .string("NSObject")])
                ]),
                .dictionary(["$class": .uid(4), "NS.objects": .array([.uid(1)])]),
                .dictionary(["$classname": .string("NSArray"), "$classes": .array([.string("NSArray"), .string("NSObject")])])
            ])
        ]))

    /// A binary plist of `objects` (already encoded) with 4-byte offsets and references.
    static func plist(objects: [[UInt8]], count: UInt64? = nil, top: UInt64 = 0) -> [UInt8] {
        var bytes = Array("bplist00".utf8)
        var offsets: [Int] = []
        for object in objects {
            offsets.append(bytes.count)
            bytes += object
        }
        let table = bytes.count
        for offset in offsets { bytes += bigEndian(UInt64(offset), 4) }
        bytes += [0, 0, 0, 0, 0, 0, 4, 4]
        bytes += bigEndian(count ?? UInt64(objects.count), 8) + bigEndian(top, 8) + bigEndian(UInt64(table), 8)
        return bytes
    }

    static func bigEndian(_ value: UInt64, _ size: Int) -> [UInt8] {
        (0..<size).map { UInt8(truncatingIfNeeded: value >> UInt64(8 * (size - 1 - $0))) }
    }

    @Test func hostilePlists() throws {
        let chain = 5_000
        let cases: [(String, [UInt8])] = [
            ("UID cycle through the archive", Self.cyclicArchive),
            ("array holding itself", Self.plist(objects: [[0xA1] + Self.bigEndian(0, 4)])),
            ("object count 2^60 in the trailer", Self.plist(objects: [[0x08]], count: 1 << 60)),
            ("array declaring 2^62 elements", Self.plist(objects: [[0xAF, 0x13] + Self.bigEndian(1 << 62, 8)])),
            ("string declaring 2^40 characters", Self.plist(objects: [[0x5F, 0x13] + Self.bigEndian(1 << 40, 8)])),
            (
                "\(chain) arrays each holding the next",
                Self.plist(
                    objects: (0..<chain).map { index in
                        index + 1 < chain ? [0xA1] + Self.bigEndian(UInt64(index + 1), 4) : [0xA0]
                    })
            )
        ]
        for (label, bytes) in cases {
            let scratch = try CLI.temporaryDirectory("hostile")
            defer { try? FileManager.default.removeItem(atPath: scratch) }
            let profile = try Self.legacyProfile(bytes, in: scratch)
            try Self.runReaders(on: profile, root: profile, scratch: scratch, label)
            let file = profile + "/Sessions/6A1E4C2B-9D0F-4B7A-8E3C-2F5D7B9A1C0E/session.plist"
            let result = try Self.runChecked(["inspect", file], label + ", file alone")
            #expect(result.status == 65, "\(label): \(result.stderr)")
        }
    }

    /// A tar archive of one member whose header declares `size` (base-256) and carries a few bytes.
    static func tarDeclaring(size: Int64, typeFlag: UInt8) throws -> [UInt8] {
        var writer = TarWriter(sink: MemorySink())
        try writer.add(TarEntry(path: "profile/SessionStorage/x/session_metadata.pb", kind: .file), content: Array("abc".utf8))
        var bytes = try writer.finish().bytes
        bytes[156] = typeFlag
        bytes.replaceSubrange(124..<136, with: [0x80, 0, 0, 0] + bigEndian(UInt64(size), 8))
        for index in 148..<156 { bytes[index] = UInt8(ascii: " ") }
        let sum = bytes[0..<512].reduce(0) { $0 + Int($1) }
        let digits = Array(String(sum, radix: 8).utf8)
        bytes.replaceSubrange(
            148..<156, with: Array(repeating: UInt8(ascii: "0"), count: 6 - digits.count) + digits + [0, UInt8(ascii: " ")])
        return bytes
    }

    @Test func archivesDeclaringHugeSizes() throws {
        let metadata = [UInt8](
            try Data(
                contentsOf: URL(fileURLWithPath: Self.healthy + "/SessionStorage/E9D8C7B6-A5F4-4321-8765-0FEDCBA98765/session_metadata.pb"))
        )
        var wrongSize = try GzipEncoder.compress(metadata)
        wrongSize.replaceSubrange((wrongSize.count - 4)..., with: [0xff, 0xff, 0xff, 0xff])
        let cases: [(String, [UInt8])] = [
            ("gzip trailer declaring 4 GiB - 1", wrongSize),
            ("tar file declaring 2^63 - 1 bytes", try GzipEncoder.compress(try Self.tarDeclaring(size: .max, typeFlag: UInt8(ascii: "0")))),
            (
                "tar volume label declaring 2^63 - 1 bytes",
                try GzipEncoder.compress(try Self.tarDeclaring(size: .max, typeFlag: UInt8(ascii: "V")))
            ),
            (
                "tar dump directory declaring 2^63 - 1 bytes",
                try GzipEncoder.compress(try Self.tarDeclaring(size: .max, typeFlag: UInt8(ascii: "D")))
            ),
            (
                "tar vendor member declaring 2^63 - 1 bytes",
                try GzipEncoder.compress(try Self.tarDeclaring(size: .max, typeFlag: UInt8(ascii: "Z")))
            )
        ]
        for (label, bytes) in cases {
            let scratch = try CLI.temporaryDirectory("hostile")
            defer { try? FileManager.default.removeItem(atPath: scratch) }
            let input = scratch + "/in/bundle.tar.gz"
            try FileManager.default.createDirectory(atPath: scratch + "/in", withIntermediateDirectories: true)
            try Data(bytes).write(to: URL(fileURLWithPath: input))
            try Self.runReaders(on: input, root: scratch + "/in", scratch: scratch, label)
            let before = Self.snapshot(scratch + "/in")
            let result = try Self.runChecked(["decompress", input, "-o", scratch + "/out"], label)
            #expect(result.status == 65, "\(label): \(result.stderr)")
            #expect(Self.snapshot(scratch + "/in") == before, "\(label): decompress changed its input")
        }
    }

    /// crash-test's inputs typed by hand: a reproducer tearing a sector near 2^63 of an operation
    /// that writes nothing (it trapped while materialising the state), and broken workload files.
    @Test func hostileCrashTestInputs() throws {
        let scratch = try CLI.temporaryDirectory("hostile")
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let base = "workload=small;model=pessimistic;protocol=in-place;seed=1;crash=25;keep=all"
        for tear in ["25:sector:9223372036854775807:1", "25:sector:0:9223372036854775807", "9223372036854775807:cut:1"] {
            let result = try CLI.run(["crash-test", "--replay", base + ";tear=" + tear], timeout: Self.timeLimit)
            #expect(!result.timedOut && result.status == 64, "tear=\(tear): status \(result.status), \(result.stderr)")
            #expect(
                result.stderr.hasPrefix("sessionctl: crash-test: reproducer") && result.stderr.split(separator: "\n").count == 1,
                "tear=\(tear): \(result.stderr)")
        }
        let workloads: [(String, [UInt8])] = [
            ("not UTF-8", [0x6c, 0x61, 0xff, 0xfe, 0x0a]),
            ("unterminated quote", Array("launch\nopen t1 \"https://example.org/\n".utf8)),
            ("repeat without an event", Array("launch\nrepeat 100000\n".utf8)),
            ("repeat beyond its limit", Array("launch\nrepeat 100001 crash\n".utf8)),
            ("one word of 1 MiB", Array(("launch\nopen " + String(repeating: "x", count: 1 << 20) + "\n").utf8))
        ]
        for (label, bytes) in workloads {
            let file = scratch + "/hostile.workload"
            try Data(bytes).write(to: URL(fileURLWithPath: file))
            let result = try CLI.run(["crash-test", "--workload", file], timeout: Self.timeLimit)
            #expect(!result.timedOut && result.status == 65, "\(label): status \(result.status), \(result.stderr)")
            #expect(
                result.stderr.hasPrefix("sessionctl: crash-test: ") && result.stderr.split(separator: "\n").count == 1,
                "\(label): \(result.stderr)")
            #expect(try Data(contentsOf: URL(fileURLWithPath: file)) == Data(bytes), "\(label): the workload file changed")
        }
    }

    /// A path whose bytes are not UTF-8 gets a usage error naming the argument, not "missing".
    @Test func aPathThatIsNotUTF8() throws {
        for command in ["inspect", "validate", "repair"] {
            let result = try CLI.runProgram(
                "/bin/sh", ["-c", "exec \"$0\" \"$1\" \"$(printf '/tmp/profile-\\377')\"", CLI.binary, command],
                timeout: Self.timeLimit)
            #expect(result.status == 64, "\(command): \(result.stderr)")
            #expect(
                result.stderr
                    == "sessionctl: argument 2 is not valid UTF-8: sessionctl takes paths in UTF-8 (rename the file, or give it a symbolic link with a UTF-8 name)\n"
            )
        }
    }

    /// Reading a gzip file in place stops at 256 MiB of decompressed content, naming decompress.
    @Test func aGzipFileTooLargeToReadInPlace() throws {
        let scratch = try CLI.temporaryDirectory("hostile")
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        try Archives.zeroBomb(gibibytes: 1).write(to: URL(fileURLWithPath: scratch + "/zeros.gz"))
        let result = try Self.runChecked(["inspect", scratch + "/zeros.gz"], "a gzip stream of 1 GiB of zeros")
        #expect(result.status == 65)
        #expect(result.stderr.contains("exceeds 268435456 bytes") && result.stderr.contains("sessionctl decompress"), "\(result.stderr)")
    }
}
