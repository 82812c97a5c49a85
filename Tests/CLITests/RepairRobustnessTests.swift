import Foundation
import TestSupport
import Testing

/// Fuzz-style robustness of `sessionctl repair`: the healthy profile's files are truncated, bit
/// flipped, emptied, deleted or extended with garbage in a scratch copy, and repair must never
/// crash, must exit 0, 1 or 65 as the contract says, and when it exits 0 validate must find no
/// error; a second run must then change nothing.
@Suite struct RepairRobustnessTests {
    /// Damages one file of `profile` whose name ends in `suffix`; returns what was done, for the failure message.
    static func mutate(_ profile: String, suffix: String = ".pb", _ random: inout SplitMix64) throws -> String {
        let files = RepairCommandTests.files(profile).keys.filter { $0.hasSuffix(suffix) }.sorted()
        let path = files[random.below(files.count)]
        let url = URL(fileURLWithPath: profile + "/" + path)
        var bytes = [UInt8](try Data(contentsOf: url))
        let kind = random.below(5)
        switch kind {
        case 0:
            let length = random.below(bytes.count)
            bytes = Array(bytes[..<length])
            try Data(bytes).write(to: url)
            return "\(path) cut to \(length) bytes"
        case 1:
            var flipped: [Int] = []
            for _ in 0..<(1 + random.below(4)) where !bytes.isEmpty {
                let bit = random.below(bytes.count * 8)
                bytes[bit / 8] ^= UInt8(1 << (bit % 8))
                flipped.append(bit)
            }
            try Data(bytes).write(to: url)
            return "\(path) bits \(flipped) flipped"
        case 2:
            try FileManager.default.removeItem(at: url)
            return "\(path) deleted"
        case 3:
            let garbage = (0..<(1 + random.below(40))).map { _ in UInt8(truncatingIfNeeded: random.next()) }
            try Data(bytes + garbage).write(to: url)
            return "\(path) extended by \(garbage.count) bytes"
        default:
            try Data().write(to: url)
            return "\(path) emptied"
        }
    }

    @Test(arguments: 0..<24)
    func damagedProfilesRepairOrSayWhy(seed: Int) throws {
        let profile = try RepairCommandTests.copy("Fixtures/profiles/healthy")
        defer { try? FileManager.default.removeItem(atPath: parentDirectory(profile)) }
        var random = SplitMix64(seed: UInt64(seed) &* 7919 &+ 17)
        var damage: [String] = []
        for _ in 0..<(1 + random.below(3)) { damage.append(try Self.mutate(profile, &random)) }
        try Self.repairOrSayWhy(profile, label: "seed \(seed): \(damage.joined(separator: "; "))")
    }

    /// The same with the legacy profile, whose session.plist files are damaged.
    @Test(arguments: 0..<16)
    func damagedLegacyProfilesRepairOrSayWhy(seed: Int) throws {
        let profile = try RepairCommandTests.copy("Fixtures/profiles/legacy")
        defer { try? FileManager.default.removeItem(atPath: parentDirectory(profile)) }
        var random = SplitMix64(seed: UInt64(seed) &* 104_729 &+ 3)
        let damage = try Self.mutate(profile, suffix: "session.plist", &random)
        try Self.repairOrSayWhy(profile, label: "legacy seed \(seed): \(damage)")
    }

    /// Repair exits 0, 1 or 65 with at most one line on standard error; after a 0, validate finds
    /// no error or warning and a second run changes nothing.
    static func repairOrSayWhy(_ profile: String, label: String) throws {
        let result = try CLI.run(["repair", profile])
        #expect([0, 1, 65].contains(result.status), "\(label): status \(result.status), \(result.stderr)")
        #expect(!result.stderr.contains("Fatal error") && !result.stderr.contains("Stack dump"), "\(label)")
        #expect(
            result.stderr.isEmpty || (result.stderr.hasPrefix("sessionctl: ") && result.stderr.split(separator: "\n").count == 1),
            "\(label): \(result.stderr)")
        guard result.status == 0 else { return }
        let validation = try CLI.run(["validate", profile, "--format", "json"])
        let document = try #require(try JSONSerialization.jsonObject(with: Data(validation.stdout.utf8)) as? [String: Any])
        let summary = try #require(document["summary"] as? [String: Any])
        #expect(summary["errors"] as? Int == 0 && summary["warnings"] as? Int == 0, "\(label): \(validation.stdout)")
        let settled = RepairCommandTests.files(profile)
        let second = try CLI.run(["repair", profile])
        #expect(second.status == 0 && second.stdout.hasPrefix("plan: nothing to change"), "\(label): \(second.stdout)")
        #expect(RepairCommandTests.files(profile) == settled, "\(label)")
    }
}
