import Foundation
import TestSupport
import Testing

@testable import SessionFormats

/// The binary property list reader and writer, alone and against Foundation's.
@Suite struct BinaryPlistTests {
    init() { Browsers.install() }

    /// A value using every kind of object, long enough to need extended lengths.
    static let sample: PlistValue = .dictionary([
        "ascii": .string("plain text"),
        "long": .string(String(repeating: "x", count: 300)),
        "unicode": .string("Zürich € 😀"),
        "empty": .string(""),
        "integers": .array([
            .integer(0), .integer(255), .integer(256), .integer(65_536), .integer(4_294_967_296),
            .integer(-1), .integer(Int64.min), .integer(Int64.max)
        ]),
        "reals": .array([.real(2.5), .real(-0.125)]),
        "date": .date(785_000_000.5),
        "data": .data(Array(0..<40)),
        "flags": .array([.bool(true), .bool(false)]),
        "uids": .array([.uid(0), .uid(255), .uid(256), .uid(70_000)]),
        "many": .array((0..<20).map { .integer(Int64($0)) }),
        "nested": .dictionary(["set": .set([.string("a")]), "inner": .dictionary([:])])
    ])

    @Test func writerOutputReadsBackEqual() throws {
        let bytes = BinaryPlistWriter.encode(Self.sample)
        #expect(bytes.starts(with: Array("bplist00".utf8)))
        #expect(try BinaryPlistReader.read(bytes).value() == Self.sample)
    }

    @Test func foundationReadsWhatTheWriterWrites() throws {
        var value = Self.sample
        if case .dictionary(var members) = value {
            members["uids"] = nil
            members["nested"] = .dictionary(["inner": .dictionary([:])])
            value = .dictionary(members)
        }
        let bytes = BinaryPlistWriter.encode(value)
        let decoded = try PropertyListSerialization.propertyList(from: Data(bytes), options: [], format: nil)
        #expect(FoundationPlist.value(decoded) == value)
    }

    @Test func readerReadsWhatFoundationWrites() throws {
        let object: [String: Any] = [
            "name": "Zürich € 😀", "count": 42, "negative": -7, "big": Int64.max, "ratio": 0.5,
            "flag": true, "bytes": Data([1, 2, 3]), "list": (0..<30).map { "item \($0)" }
        ]
        let data = try PropertyListSerialization.data(fromPropertyList: object, format: .binary, options: 0)
        let ours = try BinaryPlistReader.read([UInt8](data)).value()
        #expect(ours == FoundationPlist.value(object))
    }

    /// An ASCII-marked string (0x5) is one scalar a byte: plain ASCII as it is, a byte past 0x7F
    /// as the Latin-1 character of that value (never a UTF-8 sequence).
    @Test(arguments: [([UInt8](Array("http://a.org/".utf8)), "http://a.org/"), ([0x63, 0x61, 0x66, 0xE9], "caf\u{E9}")])
    func asciiStringsReadOneScalarAByte(bytes: [UInt8], expected: String) throws {
        // A one-object plist (a string under 15 bytes: its length in the marker), its offset table and trailer.
        var plist = Array("bplist00".utf8) + [0x50 | UInt8(bytes.count)] + bytes
        let offsetTable = plist.count
        plist += [8]
        plist += [0, 0, 0, 0, 0, 0, 1, 1] + [0, 0, 0, 0, 0, 0, 0, 1] + [0, 0, 0, 0, 0, 0, 0, 0]
        plist += (0..<8).map { UInt8(truncatingIfNeeded: offsetTable >> (8 * (7 - $0))) }
        #expect(try BinaryPlistReader.read(plist).value() == .string(expected))
    }

    @Test func corpusPlistsAgreeWithFoundation() throws {
        for path in Corpus.legacyPlists() {
            let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
            let foundation = try PropertyListSerialization.propertyList(from: Data(bytes), options: [], format: nil)
            // Foundation keeps UIDs opaque on Linux: compare everything else, UIDs as wildcards.
            #expect(FoundationPlist.matches(try BinaryPlistReader.read(bytes).value(), foundation), "\(path)")
        }
    }

    @Test func everyTruncationIsReportedWithinTheFile() throws {
        let bytes = BinaryPlistWriter.encode(Self.sample)
        for length in 0..<bytes.count {
            let prefix = Array(bytes[0..<length])
            #expect(throws: PlistDamage.self) { try BinaryPlistReader.read(prefix) }
            do {
                _ = try BinaryPlistReader.read(prefix)
            } catch {
                #expect(error.offset <= length)
            }
        }
    }

    @Test func damagedBytesNeverTrap() throws {
        let bytes = BinaryPlistWriter.encode(Self.sample)
        for position in bytes.indices {
            for replacement: UInt8 in [0x00, 0xFF, 0x0F, 0x5F, 0xAF, 0xDF, bytes[position] ^ 0x01] {
                var damaged = bytes
                damaged[position] = replacement
                if let plist = try? BinaryPlistReader.read(damaged) {
                    _ = try? plist.value()
                }
            }
        }
    }

    @Test func wrongObjectOffsetIsReportedAtItsTableEntry() throws {
        var bytes = BinaryPlistWriter.encode(.array([.string("a"), .string("b")]))
        let trailer = bytes.count - 32
        let tableOffset = Int(bytes[bytes.count - 1])
        #expect(bytes[trailer + 6] == 1)
        bytes[tableOffset + 1] = UInt8(tableOffset + 5)
        let damage = try #require(throws: PlistDamage.self) { try BinaryPlistReader.read(bytes) }
        #expect(damage.offset == tableOffset + 1)
    }

    @Test func referenceOutOfRangeIsReportedAtTheReference() throws {
        var bytes = BinaryPlistWriter.encode(.array([.string("a")]))
        // Object 0 is the array at byte 8: marker 0xA1, then its one reference.
        #expect(bytes[8] == 0xA1)
        bytes[9] = 7
        let damage = try #require(throws: PlistDamage.self) { try BinaryPlistReader.read(bytes) }
        #expect(damage.offset == 9)
        #expect(damage.reason.contains("object 7"))
    }

    @Test func cycleIsRejected() throws {
        let bytes = BinaryPlistWriter.serialize([.array([1]), .dictionary(keys: [2], values: [0]), .string("k")])
        let damage = try #require(throws: PlistDamage.self) { try BinaryPlistReader.read(bytes) }
        #expect(damage.reason.contains("cycle"))
    }

    @Test func deepNestingIsRejectedWithoutRecursion() throws {
        let depth = 100_000
        var objects: [PlistObject] = (0..<depth).map { .array([$0 + 1]) }
        objects.append(.integer(1))
        let damage = try #require(throws: PlistDamage.self) { try BinaryPlistReader.read(BinaryPlistWriter.serialize(objects)) }
        #expect(damage.reason.contains("nested deeper"))
    }

    @Test func sharedObjectsAreReadOnce() throws {
        // 60 levels of arrays holding the next level twice: 2^60 paths, 61 objects.
        var objects: [PlistObject] = (0..<60).map { .array([$0 + 1, $0 + 1]) }
        objects.append(.string("leaf"))
        let plist = try BinaryPlistReader.read(BinaryPlistWriter.serialize(objects))
        #expect(plist.objects.count == 61)
        _ = try plist.value()
    }

    @Test func notAPlistIsDamageAtByteZero() throws {
        for bytes in [[], Array("{\"a\": 1}".utf8), Array("bplist".utf8)] as [[UInt8]] {
            let damage = try #require(throws: PlistDamage.self) { try BinaryPlistReader.read(bytes) }
            #expect(damage.offset <= bytes.count)
        }
    }
}
