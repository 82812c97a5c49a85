import FileSystemKit
import Foundation
import SessionFormats
import SessionModel

/// The typed fields of a legacy tab: each accepts what either shape stores (and what NSCoding's
/// lenient getters accepted), and records what Firefox's Codable decoder would refuse.
extension FirefoxLegacyArchiveReader {
    /// The value of `key`, nil when absent or `$null`; a missing required key, `$null` and an
    /// object of a class the Codable decoder does not take are refused.
    mutating func field(
        _ fields: FirefoxLegacyFields, _ key: String, _ path: String, required: Bool = false
    ) throws(PlistDamage)
        -> FirefoxLegacyValue?
    {
        let at = "\(path).\(key)"
        guard let value = try fields.value(key) else {
            if required { refuse(at, "missing") }
            return nil
        }
        if case .null = value {
            refuse(at, "$null")
            return nil
        }
        _ = checkClass(value, at)
        return value
    }

    /// Refuses an archived object whose class Firefox's Codable decoder does not take; true when
    /// the value may go on being read (always: the reader is tolerant).
    mutating func checkClass(_ value: FirefoxLegacyValue, _ path: String) -> Bool {
        if case .object(let object) = value, !Self.codableClasses.contains(object.className) {
            refuse(path, "\(value.kind), which Firefox's Codable decoder does not take")
        }
        return true
    }

    /// A string (a plain string or an archived `NSString`).
    mutating func string(
        _ fields: FirefoxLegacyFields, _ key: String, _ path: String, required: Bool = false
    ) throws(PlistDamage)
        -> String?
    {
        guard let value = try field(fields, key, path, required: required) else { return nil }
        guard let text = value.string else {
            refuse("\(path).\(key)", "\(value.kind), not a string")
            return nil
        }
        return text
    }

    /// A boolean; an integer reads as one (NSCoding's `decodeBool` takes it, Codable's does not).
    mutating func bool(_ fields: FirefoxLegacyFields, _ key: String, _ path: String, required: Bool = false) throws(PlistDamage) -> Bool? {
        guard let value = try field(fields, key, path, required: required) else { return nil }
        switch value {
        case .scalar(.bool(let flag)): return flag
        case .scalar(.integer(let number)):
            refuse("\(path).\(key)", "an integer, not true or false")
            return number != 0
        default:
            refuse("\(path).\(key)", "\(value.kind), not true or false")
            return nil
        }
    }

    /// A signed whole number: an integer, or a real without a fraction (as Foundation's
    /// property-list decoder takes an `NSNumber`).
    mutating func signed(_ fields: FirefoxLegacyFields, _ key: String, _ path: String, required: Bool = false) throws(PlistDamage) -> Int64?
    {
        guard let value = try field(fields, key, path, required: required) else { return nil }
        switch value {
        case .scalar(.integer(let number)): return number
        case .scalar(.real(let number)) where number.rounded() == number && abs(number) < 9.2e18: return Int64(number)
        default:
            refuse("\(path).\(key)", "\(value.kind), not a whole number")
            return nil
        }
    }

    /// An unsigned 64-bit whole number (a `Timestamp`); a negative one is refused and not read.
    mutating func unsigned(
        _ fields: FirefoxLegacyFields, _ key: String, _ path: String, required: Bool = false
    ) throws(PlistDamage)
        -> UInt64?
    {
        guard let value = try field(fields, key, path, required: required) else { return nil }
        switch value {
        case .scalar(.integer(let number)) where number >= 0: return UInt64(number)
        case .scalar(.largeInteger(let raw)) where raw.count == 16 && raw[0..<8].allSatisfy({ $0 == 0 }):
            return raw[8..<16].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        case .scalar(.real(let number)) where number >= 0 && number.rounded() == number && number < 1.8e19: return UInt64(number)
        default:
            refuse("\(path).\(key)", "\(value.kind), not a time in milliseconds")
            return nil
        }
    }

    /// A UUID as its upper-case string: Codable's string, or an archived `NSUUID` (`NS.uuidbytes`).
    mutating func uuid(_ fields: FirefoxLegacyFields, _ key: String, _ path: String) throws(PlistDamage) -> String? {
        guard let value = try field(fields, key, path) else { return nil }
        if let text = value.string {
            guard FirefoxUUID.isValid(text) else {
                refuse("\(path).\(key)", "\"\(text)\", not a UUID")
                return nil
            }
            return text.uppercased()
        }
        guard case .object(let object) = value, let bytes = try? object.bytes("NS.uuidbytes"), bytes.count == 16 else {
            refuse("\(path).\(key)", "\(value.kind), not a UUID")
            return nil
        }
        let hex = bytes.map { byte in String(byte >> 4, radix: 16, uppercase: true) + String(byte & 0x0F, radix: 16, uppercase: true) }
        return [0..<4, 4..<6, 6..<8, 8..<10, 10..<16].map { hex[$0].joined() }.joined(separator: "-")
    }

    /// The fields of a nested container: an NSCoding object or a dictionary.
    mutating func container(_ fields: FirefoxLegacyFields, _ key: String, _ path: String) throws(PlistDamage) -> FirefoxLegacyFields? {
        guard let value = try field(fields, key, path) else { return nil }
        guard case .object(let object) = value else {
            refuse("\(path).\(key)", "\(value.kind), not a dictionary")
            return nil
        }
        let nested = try FirefoxLegacyFields(object)
        if nested.foreignKeys > 0 { refuse("\(path).\(key)", "a dictionary with a key that is not a string") }
        return nested
    }

    /// A URL as an absolute string: URL's Codable dictionary (`relative`, optional `base`), an
    /// `NSURL` (`NS.relative`, `NS.base`), or a plain string; its bases are followed iteratively,
    /// `maxURLBases` deep at most. Nil (refused) when it holds no relative string.
    mutating func url(_ value: FirefoxLegacyValue, _ path: String) throws(PlistDamage) -> String? {
        var relatives: [String] = []
        var next: FirefoxLegacyValue? = value
        var offset = 0
        while let current = next {
            next = nil
            guard relatives.count < Self.maxURLBases else {
                throw PlistDamage(offset: offset, reason: "\(path): URL bases nested deeper than \(Self.maxURLBases)")
            }
            switch current {
            case .scalar(.string(let text)):
                refuse(path, "a string, not a URL's dictionary")
                relatives.append(text)
            case .object(let object):
                offset = object.offset
                if relatives.count > 0 { _ = checkClass(current, path) }
                let fields = try FirefoxLegacyFields(object)
                let (relativeKey, baseKey) = fields.isDictionary ? ("relative", "base") : ("NS.relative", "NS.base")
                guard let text = try fields.value(relativeKey)?.string else {
                    refuse(path, "a URL without its relative string")
                    return nil
                }
                relatives.append(text)
                switch try fields.value(baseKey) {
                case nil: break
                case .null?: if fields.isDictionary { refuse("\(path).base", "$null") }
                case let base?: next = base
                }
            default:
                refuse(path, "\(current.kind), not a URL")
                return nil
            }
        }
        return absolute(relatives, path)
    }

    /// A URL's absolute string from its relative strings, outermost first: the string itself
    /// without a base, else the URL Foundation resolves (the outermost string when it resolves none).
    private mutating func absolute(_ relatives: [String], _ path: String) -> String {
        guard relatives.count > 1 else {
            if codable, URL(string: relatives[0]) == nil { refuse(path, "\"\(relatives[0])\", not a URL Foundation reads") }
            return relatives[0]
        }
        var base: URL?
        for text in relatives.reversed() {
            guard let url = URL(string: text, relativeTo: base) else {
                refuse(path, "\"\(text)\", not a URL Foundation reads")
                return relatives[0]
            }
            base = url
        }
        return base?.absoluteString ?? relatives[0]
    }
}
