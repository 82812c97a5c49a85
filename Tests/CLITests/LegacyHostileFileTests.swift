import Foundation
import SessionFormats
import Testing

/// Legacy session.plist files built to cost a reader far more than their size, or that are no
/// file at all: each is refused at once, in one line, never read as an empty window.
@Suite struct LegacyHostileFileTests {
    static let timeLimit = 20.0

    /// 3,000 references to one tab whose entries hold 3,000 references to one navigation item:
    /// 6.5 KB that expand to 9 million items (the layout of Benchmarks/make-plist-bomb.py).
    static func bomb(tabs: Int = 3_000, entries: Int = 3_000) -> [UInt8] {
        func classOf(_ name: String) -> PlistValue {
            .dictionary(["$classname": .string(name), "$classes": .array([.string(name), .string("NSObject")])])
        }
        return BinaryPlistWriter.encode(
            .dictionary([
                "$archiver": .string("NSKeyedArchiver"), "$version": .integer(100_000), "$top": .dictionary(["root": .uid(1)]),
                "$objects": .array([
                    .string("$null"),
                    .dictionary(["$class": .uid(2), "selectedIndex": .integer(0), "sessions": .uid(3)]),
                    classOf("SessionWindowIOS"),
                    .dictionary(["$class": .uid(4), "NS.objects": .array(Array(repeating: .uid(5), count: tabs))]),
                    classOf("NSArray"),
                    .dictionary([
                        "$class": .uid(6), "uniqueIdentifier": .integer(1), "lastCommittedItemIndex": .integer(0), "entries": .uid(7)
                    ]),
                    classOf("CRWSessionStorage"),
                    .dictionary(["$class": .uid(4), "NS.objects": .array(Array(repeating: .uid(8), count: entries))]),
                    .dictionary(["$class": .uid(9), "urlString": .data(Array("https://a.example/".utf8)), "timestamp": .integer(1)]),
                    classOf("CRWNavigationItemStorage")
                ])
            ]))
    }

    /// A profile whose one legacy session is `Sessions/S/session.plist`, made by `make`.
    static func profile(_ make: (String) throws -> Void) throws -> String {
        let profile = try CLI.temporaryDirectory("legacy-hostile")
        let session = profile + "/Sessions/S"
        try FileManager.default.createDirectory(atPath: session, withIntermediateDirectories: true)
        try make(session + "/session.plist")
        return profile
    }

    @Test func sharedReferenceBombIsStatus65InOneLine() throws {
        let bytes = Self.bomb()
        #expect(bytes.count < 7_000)
        let profile = try Self.profile { try Data(bytes).write(to: URL(fileURLWithPath: $0)) }
        defer { try? FileManager.default.removeItem(atPath: profile) }
        for arguments in [
            ["inspect", profile], ["inspect", profile, "--history", "--format", "json"], ["inspect", profile + "/Sessions/S/session.plist"]
        ] {
            let result = try CLI.run(arguments, timeout: Self.timeLimit)
            #expect(!result.timedOut, "\(arguments): still running after \(Self.timeLimit) s")
            #expect(result.status == 65, "\(arguments): \(result.status) \(result.stderr)")
            #expect(result.stderr.hasPrefix("sessionctl: ") && result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
            #expect(
                result.stderr.contains("session.plist: damaged at byte ") && result.stderr.contains("its object references expand past"),
                "\(result.stderr)")
        }
        let validate = try CLI.run(["validate", profile, "--format", "json"], timeout: Self.timeLimit)
        #expect(!validate.timedOut)
        #expect(validate.status == 1, "\(validate.stderr)")
        #expect(validate.stdout.contains("legacy-unparsable") && validate.stdout.contains("its object references expand past"))
    }

    @Test func fifoSessionPlistIsNamedNotReadAsNoSessions() throws {
        let profile = try Self.profile { path in #expect(mkfifo(path, 0o600) == 0) }
        defer { try? FileManager.default.removeItem(atPath: profile) }
        let validate = try CLI.run(["validate", profile], timeout: Self.timeLimit)
        #expect(!validate.timedOut)
        #expect(validate.status == 1, "\(validate.stdout)\(validate.stderr)")
        #expect(validate.stdout.contains("legacy-unparsable") && validate.stdout.contains("not a regular file"), "\(validate.stdout)")
        #expect(!validate.stdout.contains("0 sessions"), "\(validate.stdout)")
        let inspect = try CLI.run(["inspect", profile], timeout: Self.timeLimit)
        #expect(!inspect.timedOut)
        #expect(inspect.status == 66, "\(inspect.stdout)\(inspect.stderr)")
        #expect(inspect.stderr == "sessionctl: \(profile)/Sessions/S/session.plist: not a regular file\n")
    }
}
