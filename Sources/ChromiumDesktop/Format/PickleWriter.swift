import Archive
import FileSystemKit
import SessionFormats
import SessionModel

/// Writes a `base::Pickle` as Chromium does (docs/chromium-desktop-format.md, "Pickles"): a
/// uint32 payload size, then fields each padded to 4 bytes.
struct PickleWriter {
    private var payload: [UInt8] = []

    private mutating func pad() {
        while payload.count % 4 != 0 { payload.append(0) }
    }

    mutating func uint32(_ value: UInt32) {
        for shift in stride(from: 0, to: 32, by: 8) { payload.append(UInt8(truncatingIfNeeded: value >> UInt32(shift))) }
    }

    mutating func int32(_ value: Int32) { uint32(UInt32(bitPattern: value)) }

    mutating func uint64(_ value: UInt64) {
        for shift in stride(from: 0, to: 64, by: 8) { payload.append(UInt8(truncatingIfNeeded: value >> UInt64(shift))) }
    }

    mutating func int64(_ value: Int64) { uint64(UInt64(bitPattern: value)) }

    mutating func bool(_ value: Bool) { int32(value ? 1 : 0) }

    mutating func data(_ bytes: some Collection<UInt8>) {
        int32(Int32(clamping: bytes.count))
        payload += bytes
        pad()
    }

    mutating func string(_ text: String) { data(Array(text.utf8)) }

    mutating func string16(_ text: String) {
        let units = Array(text.utf16)
        int32(Int32(clamping: units.count))
        for unit in units {
            payload.append(UInt8(truncatingIfNeeded: unit))
            payload.append(UInt8(truncatingIfNeeded: unit >> 8))
        }
        pad()
    }

    /// The pickle: the payload's size, then the payload.
    var bytes: [UInt8] {
        var writer = PickleWriter()
        writer.uint32(UInt32(payload.count))
        return writer.payload + payload
    }
}
