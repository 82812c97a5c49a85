/// pax extended header records (POSIX.1-2001): `"<length> <key>=<value>\n"`, length counting itself.
enum PaxRecords {
    /// Encodes records in the given order.
    static func encode(_ records: [(String, String)]) -> [UInt8] {
        var out: [UInt8] = []
        for (key, value) in records {
            let body = key.utf8.count + value.utf8.count + 3
            var length = body + String(body).count
            if String(length).count != String(body).count { length = body + String(length).count }
            out.append(contentsOf: "\(length) \(key)=\(value)\n".utf8)
        }
        return out
    }

    /// Decodes records; nil when the bytes are not well-formed records.
    static func decode(_ bytes: [UInt8]) -> [String: String]? {
        var records: [String: String] = [:]
        var index = 0
        while index < bytes.count {
            // GNU tar and others may pad the data with NULs.
            if bytes[index] == 0 { break }
            var length = 0
            var cursor = index
            while cursor < bytes.count, bytes[cursor] >= UInt8(ascii: "0"), bytes[cursor] <= UInt8(ascii: "9") {
                length = length * 10 + Int(bytes[cursor] - UInt8(ascii: "0"))
                guard length <= bytes.count else { return nil }
                cursor += 1
            }
            guard cursor > index, cursor < bytes.count, bytes[cursor] == UInt8(ascii: " "),
                length > cursor - index + 1, index + length <= bytes.count, bytes[index + length - 1] == 10
            else { return nil }
            let record = bytes[(cursor + 1)..<(index + length - 1)]
            guard let equals = record.firstIndex(of: UInt8(ascii: "=")) else { return nil }
            let key = String(decoding: record[record.startIndex..<equals], as: UTF8.self)
            let value = String(decoding: record[(equals + 1)...], as: UTF8.self)
            // An empty value removes the key (pax "delete" semantics).
            records[key] = value
            index += length
        }
        return records
    }
}
