import SessionStore

/// The hash of a path with its variable parts generalised: temporary names, tab directories,
/// set-aside stamps and session directories each stand for all of their kind, so that the
/// recoveries of two sessions, or of the same one at two times, have the same shape (see
/// `StateJudge.shouldExploreRecoveryCrashes`).
///
/// Computed from the path's bytes in one pass, with nothing allocated for an ASCII path: a
/// recovery of ten thousand tabs has tens of thousands of steps to take the shape of.
enum PathShape {
    static func of(_ path: String) -> UInt64 {
        var path = path
        return path.withUTF8 { bytes in
            hexDigits.withUnsafeBufferPointer { hexDigits in
                var hash: UInt64 = 0x7368_6170_65
                guard let base = bytes.baseAddress else { return hash }
                var start = 0
                // What the component being read is made of so far, without a branch per byte:
                // the bits of all its bytes (ASCII when the top one is clear), whether all are
                // hexadecimal digits, how many are "T".
                var bits: UInt8 = 0
                var hex: UInt8 = 1
                var ts = 0
                for index in 0...bytes.count {
                    guard index < bytes.count, base[index] != 0x2F else {
                        let length = index - start
                        if length > 0 {
                            let component = UnsafeBufferPointer(start: base + start, count: length)
                            hash = ContentHash.combine(hash, shape(component, ascii: bits < 0x80, hex: hex == 1, hasT: ts > 0))
                        }
                        start = index + 1
                        bits = 0
                        hex = 1
                        ts = 0
                        continue
                    }
                    let byte = base[index]
                    bits |= byte
                    hex &= hexDigits[Int(byte)]
                    ts &+= byte == 0x54 ? 1 : 0
                }
                return hash
            }
        }
    }

    /// The shape of the path `name` names inside the directory whose path has shape `shape`.
    static func extend(_ shape: UInt64, _ name: String) -> UInt64 {
        var name = name
        return name.withUTF8 { bytes in
            guard !bytes.isEmpty else { return shape }
            var bits: UInt8 = 0
            var hex = true
            var ts = 0
            for byte in bytes {
                bits |= byte
                hex = hex && hexDigits[Int(byte)] == 1
                ts &+= byte == 0x54 ? 1 : 0
            }
            return ContentHash.combine(shape, self.shape(bytes, ascii: bits < 0x80, hex: hex, hasT: ts > 0))
        }
    }

    /// The shape of one component (no slash in it), given what its bytes are made of.
    private static func shape(_ component: UnsafeBufferPointer<UInt8>, ascii: Bool, hex: Bool, hasT: Bool) -> UInt64 {
        let length = component.count
        if !ascii { return self.component(String(decoding: component, as: UTF8.self)) }
        if component.starts(with: temporaryPrefix) { return temporary }
        if length >= 8 && hex { return tab }
        if length == 23 && hasT && component[22] == 0x5A { return stamp }
        if length > 20 || component[0] == 0x7B { return session }
        return ContentHash.of(UnsafeRawBufferPointer(component))
    }

    /// 1 for the bytes of hexadecimal digits, 0 for every other byte.
    private static let hexDigits: [UInt8] = (0..<256).map { byte in
        (0x30...0x39).contains(byte) || (0x41...0x46).contains(byte) || (0x61...0x66).contains(byte) ? 1 : 0
    }

    private static let temporary = ContentHash.of("<tmp>")
    private static let tab = ContentHash.of("<tab>")
    private static let stamp = ContentHash.of("<stamp>")
    private static let session = ContentHash.of("<session>")
    private static let temporaryPrefix = Array(AtomicWriter.temporaryPrefix.utf8)

    /// The rules for a component that is not ASCII, its length counted in characters.
    private static func component(_ text: String) -> UInt64 {
        if AtomicWriter.isTemporaryName(text) { return temporary }
        if text.count >= 8, text.allSatisfy(\.isHexDigit) { return tab }
        if text.count == 23, text.contains("T"), text.hasSuffix("Z") { return stamp }
        if text.count > 20 || text.hasPrefix("{") { return session }
        return ContentHash.of(text)
    }
}
