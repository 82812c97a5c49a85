import FileSystemKit

/// A record that sets something of one tab or window that replay does not model (its bounds,
/// app name, workspace, user agent override, session storage, GUID, extra data...), kept as the
/// file holds it so that a rewrite carries it over byte for byte
/// (docs/chromium-desktop-format.md, "Session commands").
public struct SNSSKeptRecord: Sendable, Equatable {
    /// What a kept record sets something of.
    public enum Subject: Sendable, Equatable {
        case window(Int32)
        case tab(Int32)
    }

    public var id: UInt8
    /// Where its contents are in the file it was read from.
    public var contents: Range<Int>

    /// The slot a record fills: a later record of the same slot replaces it (the two bounds
    /// commands share one: each sets the bounds and the show state whole); extra data
    /// accumulates. The old user agent override (18) sets the string alone, so it keeps a slot
    /// apart from the newer one (29).
    var slot: UInt8? {
        switch id {
        case 10: 14
        case 33, 34: nil
        default: id
        }
    }

    /// The tab or window record `id` with `contents` in `bytes` sets something of, when it is one
    /// a rewrite keeps: the id of a fixed-size command's first field, or a pickle's first int32
    /// (after its header, whose size the payload size gives, as the pickle reader reads it).
    static func subject(id: UInt8, _ bytes: FileBytes, _ contents: Range<Int>) -> Subject? {
        let isWindow: Bool
        let pickled: Bool
        switch id {
        case 10, 14, 32: (isWindow, pickled) = (true, false)
        case 15, 23, 34: (isWindow, pickled) = (true, true)
        case 36: (isWindow, pickled) = (false, false)
        case 13, 18, 19, 28, 29, 30, 33: (isWindow, pickled) = (false, true)
        default: return nil
        }
        var offset = 0
        if pickled {
            guard contents.count >= 4 else { return nil }
            let payload = Int(SNSSSessionCommand.FixedFields(bytes: bytes, start: contents.lowerBound).int32(0))
            let header = contents.count - payload
            guard payload >= 0, header >= 4, header % 4 == 0 else { return nil }
            offset = header
        }
        guard contents.count >= offset + 4 else { return nil }
        let value = SNSSSessionCommand.FixedFields(bytes: bytes, start: contents.lowerBound).int32(offset)
        return isWindow ? .window(value) : .tab(value)
    }
}

extension [SNSSKeptRecord] {
    /// Adds `record`, replacing the one of its slot.
    mutating func keep(_ record: SNSSKeptRecord) {
        if let slot = record.slot, let at = firstIndex(where: { $0.slot == slot }) {
            remove(at: at)
        }
        append(record)
    }
}
