import Archive
import FileSystemKit
import SessionFormats
import SessionModel

/// Writes a version-3 SNSS file holding a full state as Chrome's reset writes one
/// (docs/chromium-desktop-format.md, "The writer"): the header, for each window its type, user
/// title, the records replay keeps for it (bounds, app name, workspace...), selected tab and
/// groups, then each tab's window, last active time, navigations, selected navigation, visual
/// index, pinned state, group and kept records (user agent, session storage, GUID, extra
/// data...), then the active window, then the marker. Navigations, kept records and groups'
/// metadata are written as read, unknown later fields and all; only a navigation's index is
/// renumbered where replay moved it.
public struct SNSSWriter: Sendable {
    /// The file so far.
    var bytes: [UInt8] = SNSSFile.signature + [3, 0, 0, 0]
    /// How the product the file is written for numbers Chromium's commands.
    var dialect = SNSSDialect.chromium

    public init() {}

    /// Appends Chromium's command `id`, numbered as the product numbers it.
    mutating func command(_ id: UInt8, _ contents: [UInt8]) { record(dialect.fileID(id), contents) }

    /// Appends one record: its size (the id byte and the contents), its id, its contents.
    mutating func record(_ id: UInt8, _ contents: [UInt8]) {
        let size = min(contents.count, Int(UInt16.max) - 1) + 1
        bytes += [UInt8(truncatingIfNeeded: size), UInt8(truncatingIfNeeded: size >> 8), id]
        bytes += contents.prefix(size - 1)
    }

    /// A fixed-size command of int32 fields (a bool as its first byte, zero padded).
    mutating func fixed(_ id: UInt8, _ fields: [Int32]) {
        var contents: [UInt8] = []
        for field in fields { contents += withUnsafeBytes(of: field.littleEndian, Array.init) }
        command(id, contents)
    }

    /// Appends the kept records as `source` holds them (those whose contents it still holds).
    mutating func copy(_ kept: [SNSSKeptRecord], from source: FileBytes) {
        for record in kept where record.contents.upperBound <= source.count { self.record(record.id, source[record.contents]) }
    }

    /// `fullState` with `source` held in an array.
    public static func fullState(of replay: SNSSReplay, source: [UInt8], dialect: SNSSDialect = .chromium) -> [UInt8] {
        fullState(of: replay, source: FileBytes(source), dialect: dialect)
    }

    /// The file holding `replay`'s windows (salvage's, read from `source`), as a reset writes
    /// them, its commands numbered as the product of `dialect` numbers them and the product's own
    /// commands copied (those whose window or tab is not known after the windows).
    public static func fullState(of replay: SNSSReplay, source: FileBytes, dialect: SNSSDialect = .chromium) -> [UInt8] {
        var writer = SNSSWriter()
        writer.dialect = dialect
        for window in replay.windows {
            writer.fixed(9, [window.id, window.type ?? 0])
            if !window.userTitle.isEmpty {
                var pickle = PickleWriter()
                pickle.int32(window.id)
                pickle.string(window.userTitle)
                writer.command(31, pickle.bytes)
            }
            writer.copy(window.kept, from: source)
            writer.fixed(8, [window.id, Int32(clamping: window.selectedPosition)])
            var written: Set<SNSSToken> = []
            for token in window.tabs.compactMap(\.group) where written.insert(token).inserted {
                guard let group = replay.groups[token] else { continue }
                if let record = group.record, record.upperBound <= source.count {
                    writer.command(27, source[record])
                    continue
                }
                var pickle = PickleWriter()
                pickle.uint64(token.high)
                pickle.uint64(token.low)
                pickle.string16(group.title)
                pickle.uint32(group.color)
                pickle.bool(group.collapsed)
                pickle.bool(false)
                writer.command(27, pickle.bytes)
            }
            for (position, tab) in window.tabs.enumerated() {
                writer.fixed(0, [window.id, tab.id])
                if tab.lastActive != 0 {
                    var contents = withUnsafeBytes(of: tab.id.littleEndian, Array.init) + [0, 0, 0, 0]
                    contents += withUnsafeBytes(of: tab.lastActive.littleEndian, Array.init)
                    writer.command(21, contents)
                }
                for navigation in tab.navigations { writer.command(6, navigation.contents(in: source)) }
                let selected = tab.navigations.isEmpty ? 0 : tab.navigations[tab.selectedPosition].index
                writer.fixed(7, [tab.id, selected])
                writer.fixed(2, [tab.id, Int32(clamping: position)])
                if tab.pinned { writer.fixed(12, [tab.id, 1]) }
                if let group = tab.group {
                    var contents = withUnsafeBytes(of: tab.id.littleEndian, Array.init) + [0, 0, 0, 0]
                    contents += withUnsafeBytes(of: group.high.littleEndian, Array.init)
                    contents += withUnsafeBytes(of: group.low.littleEndian, Array.init)
                    contents += [1, 0, 0, 0, 0, 0, 0, 0]
                    writer.command(25, contents)
                }
                writer.copy(tab.kept, from: source)
            }
        }
        writer.copy(replay.keptInFile, from: source)
        if let active = replay.activeWindow { writer.fixed(20, [active]) }
        writer.record(SNSSFile.markerID, [])
        return writer.bytes
    }
}

extension SNSSNavigation {
    /// The command's contents: as read from `source` with the index set to this one's, or
    /// encoded afresh from the fields when it was not read from a file.
    func contents(in source: FileBytes) -> [UInt8] {
        // Copied only when its pickle's header is the usual 4 bytes (the index is then at byte 8).
        if let record, record.upperBound <= source.count, record.count >= 12,
            Int(source.uint32(at: record.lowerBound)) == record.count - 4
        {
            var bytes = source[record]
            // The pickle's header (4 bytes), the tab id (4), then the index.
            withUnsafeBytes(of: index.littleEndian) { for (offset, byte) in $0.enumerated() { bytes[8 + offset] = byte } }
            return bytes
        }
        var pickle = PickleWriter()
        pickle.int32(tab)
        pickle.int32(index)
        pickle.string(url)
        pickle.string16(title)
        pickle.data([UInt8]())
        pickle.int32(transition)
        pickle.int32(0)
        pickle.string(referrer)
        pickle.int32(0)
        pickle.string(originalRequestURL)
        pickle.bool(false)
        pickle.int64(timestamp)
        pickle.string16("")
        pickle.int32(httpStatus)
        return pickle.bytes
    }
}
