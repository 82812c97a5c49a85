import Archive
import FileSystemKit
import SessionFormats
import SessionModel

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

    /// Its id as the file writes it (a rewrite writes it so again).
    public var id: UInt8
    /// Where its contents are in the file it was read from.
    public var contents: Range<Int>
    /// What Chromium calls it (`id` in Chromium's numbering), nil for a command of the product's own.
    public var meaning: UInt8?

    public init(id: UInt8, contents: Range<Int>, meaning: UInt8?) {
        self.id = id
        self.contents = contents
        self.meaning = meaning
    }

    /// The slot a record fills: a later record of the same slot replaces it (the two bounds
    /// commands share one: each sets the bounds and the show state whole); extra data
    /// accumulates. The old user agent override (18) sets the string alone, so it keeps a slot
    /// apart from the newer one (29).
    var slot: UInt8? {
        switch meaning {
        case 10?: 14
        case 33?, 34?, nil: nil
        case let chromium?: chromium
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
        guard let value = firstField(bytes, contents, pickled: pickled) else { return nil }
        return isWindow ? .window(value) : .tab(value)
    }

    /// The first int32 of a record's contents: a fixed-size command's first field, or a pickle's
    /// (after its header, whose size the payload size gives); nil when there is none.
    static func firstField(_ bytes: FileBytes, _ contents: Range<Int>, pickled: Bool) -> Int32? {
        var offset = 0
        if pickled {
            guard contents.count >= 4 else { return nil }
            let payload = Int(SNSSSessionCommand.FixedFields(bytes: bytes, start: contents.lowerBound).int32(0))
            let header = contents.count - payload
            guard payload >= 0, header >= 4, header % 4 == 0 else { return nil }
            offset = header
        }
        guard contents.count >= offset + 4 else { return nil }
        return SNSSSessionCommand.FixedFields(bytes: bytes, start: contents.lowerBound).int32(offset)
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
