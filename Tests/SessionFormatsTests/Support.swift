import Foundation

@testable import SessionFormats

/// Paths of the reference corpus (Fixtures/corpus, from an independent encoder) and the repository's fixtures.
enum Corpus {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The reference corpus directory.
    static var directory: String { repository.appendingPathComponent("Fixtures/corpus").path }

    /// Every file of Fixtures/ (the corpus included) whose path ends in `suffix`, with its bytes.
    static func files(endingIn suffix: String) -> [(path: String, bytes: [UInt8])] {
        let roots = [repository.appendingPathComponent("Fixtures").path]
        var files: [(path: String, bytes: [UInt8])] = []
        for root in roots {
            for relative in FileManager.default.enumerator(atPath: root)?.compactMap({ $0 as? String }) ?? []
            where relative.hasSuffix(suffix) {
                guard let data = FileManager.default.contents(atPath: "\(root)/\(relative)") else { continue }
                files.append((relative, [UInt8](data)))
            }
        }
        return files
    }

    /// Every session.plist of the corpus and of Fixtures/profiles (the intact samples; the gallery's are damaged on purpose).
    static func legacyPlists() -> [String] {
        let roots = [directory, repository.appendingPathComponent("Fixtures/profiles").path]
        return roots.flatMap { root in
            (FileManager.default.enumerator(atPath: root)?.compactMap { $0 as? String } ?? [])
                .filter { $0.hasSuffix(".plist") }.map { "\(root)/\($0)" }
        }
    }
}

/// Conversions between Foundation's property list objects and `PlistValue`.
enum FoundationPlist {
    /// The `PlistValue` of a Foundation property list (UIDs, which Foundation keeps opaque, become `.null`).
    static func value(_ object: Any) -> PlistValue {
        switch object {
        case let flag as Bool where type(of: object) == Bool.self: return .bool(flag)
        case let text as String: return .string(text)
        case let data as Data: return .data([UInt8](data))
        case let date as Date: return .date(date.timeIntervalSinceReferenceDate)
        case let array as [Any]: return .array(array.map(value))
        case let dictionary as [AnyHashable: Any]:
            var members: [String: PlistValue] = [:]
            for (key, member) in dictionary { members["\(key.base)"] = value(member) }
            return .dictionary(members)
        case let number as NSNumber:
            let type = String(cString: number.objCType)
            if type == "c" || type == "B" { return .bool(number.boolValue) }
            if type == "d" || type == "f" { return .real(number.doubleValue) }
            return .integer(number.int64Value)
        default:
            return .null
        }
    }

    /// True when `ours` equals Foundation's value, UIDs matching anything Foundation could not show.
    static func matches(_ ours: PlistValue, _ foundation: Any) -> Bool {
        switch (ours, value(foundation)) {
        case (.uid, .null): return true
        case (.array(let mine), .array):
            guard let theirs = foundation as? [Any], mine.count == theirs.count else { return false }
            return zip(mine, theirs).allSatisfy { matches($0, $1) }
        case (.dictionary(let mine), .dictionary):
            guard let theirs = foundation as? [AnyHashable: Any], mine.count == theirs.count else { return false }
            return theirs.allSatisfy { key, member in mine["\(key.base)"].map { matches($0, member) } ?? false }
        case (let mine, let theirs): return mine == theirs
        }
    }
}
