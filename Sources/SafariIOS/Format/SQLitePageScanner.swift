/// Every row of every table leaf page an SQLite database's bytes hold, in its main file and in
/// every frame of its WAL (the current ones, those a later frame superseded, those of an earlier
/// WAL generation), whether or not SQLite would read them: what salvage reads when SQLite refuses
/// the file, and the rows of pages SQLite no longer uses (sqlite.org/fileformat2.html). Bounded:
/// pages are looked at once each, a cell once however often it is pointed at, an overflow chain
/// until it comes back to a page, and the payload gathered stays within four times the input.
struct SQLitePageScanner {
    /// Where a page version was read.
    enum Origin: Sendable, Equatable {
        /// The main file.
        case file
        /// A WAL frame (its index from 0), and whether its salt is the WAL header's (a frame of
        /// the current generation) .
        case wal(frame: Int, current: Bool)
    }

    /// One row found, with where.
    struct Row: Sendable {
        var record: SQLiteRecord
        var page: Int
        var origin: Origin
    }

    let pageSize: Int
    /// The bytes of a page its b-tree uses: the page size less the bytes reserved at its end.
    let usable: Int
    /// Every version of every page, oldest first: the main file's, then the WAL's frames (those
    /// of an earlier generation first, then the current ones in order).
    private(set) var versions: [(number: Int, bytes: ArraySlice<UInt8>, origin: Origin)] = []
    /// The newest version of each page, for overflow chains.
    private var newest: [Int: ArraySlice<UInt8>] = [:]
    /// Bytes of payload the scan may still gather.
    private let payloadBudget: Budget

    /// What is left of the payload budget; a class so that a scan counts it down.
    private final class Budget {
        var remaining: Int
        init(_ remaining: Int) { self.remaining = remaining }
    }

    /// The main file's page size from its header, else the WAL's, else 4096 (iOS's).
    init(database: [UInt8], wal: [UInt8]?) {
        func size(_ value: Int) -> Int? {
            let bytes = value == 1 ? 65536 : value
            return bytes >= 512 && bytes <= 65536 && bytes & (bytes - 1) == 0 ? bytes : nil
        }
        let fileSize = database.count >= 18 ? size(Int(database[16]) << 8 | Int(database[17])) : nil
        let walSize = wal.flatMap { $0.count >= 32 ? size(Self.word($0[...], 8)) : nil }
        pageSize = fileSize ?? walSize ?? 4096
        // Every row's payload together stays within a few times what was read (a cell may be
        // pointed at many times, an overflow chain may loop): memory is bounded by the input.
        payloadBudget = Budget(4 * (database.count + (wal?.count ?? 0)) + (1 << 20))
        let reserved = fileSize != nil && database.count > 20 ? Int(database[20]) : 0
        usable = max(pageSize - reserved, 480)
        var file: [(number: Int, bytes: ArraySlice<UInt8>, origin: Origin)] = []
        var number = 1
        var offset = 0
        while offset + pageSize <= database.count {
            file.append((number, database[offset..<offset + pageSize], .file))
            number += 1
            offset += pageSize
        }
        if let wal, wal.count >= 32, [0x377F_0682, 0x377F_0683].contains(Self.word(wal[...], 0)), walSize == pageSize {
            let salts = (Self.word(wal[...], 16), Self.word(wal[...], 20))
            var earlier: [(Int, ArraySlice<UInt8>, Origin)] = []
            var current: [(Int, ArraySlice<UInt8>, Origin)] = []
            var frame = 0
            var position = 32
            while position + 24 + pageSize <= wal.count {
                let page = Self.word(wal[...], position)
                let isCurrent = (Self.word(wal[...], position + 8), Self.word(wal[...], position + 12)) == salts
                if page > 0 {
                    let version = (page, wal[position + 24..<position + 24 + pageSize], Origin.wal(frame: frame, current: isCurrent))
                    if isCurrent { current.append(version) } else { earlier.append(version) }
                }
                frame += 1
                position += 24 + pageSize
            }
            // A WAL starts a new generation only after a whole checkpoint: the earlier
            // generation's frames are older than the main file, the current ones newer.
            versions =
                earlier.map { (number: $0.0, bytes: $0.1, origin: $0.2) } + file
                + current.map { (number: $0.0, bytes: $0.1, origin: $0.2) }
        } else {
            versions = file
        }
        for version in versions { newest[version.number] = version.bytes }
    }

    /// A 4-byte big-endian word at `offset` of `bytes`.
    static func word(_ bytes: ArraySlice<UInt8>, _ offset: Int) -> Int {
        let start = bytes.startIndex + offset
        guard start + 4 <= bytes.endIndex else { return 0 }
        return bytes[start..<start + 4].reduce(0) { $0 << 8 | Int($1) }
    }

    /// Every row of every version of every table leaf page; with `wanted`, only the rows it
    /// keeps, asked of each row's values on its own page (a row it does not want costs no
    /// overflow page and no copy of its payload).
    func rows(wanted: ((SQLiteRecord) -> Bool)? = nil) -> [Row] {
        var rows: [Row] = []
        for version in versions {
            rows += leafRows(version.bytes, number: version.number, wanted: wanted).map {
                Row(record: $0, page: version.number, origin: version.origin)
            }
        }
        return rows
    }

    /// The rows of one page, when it is a table leaf page; none otherwise.
    private func leafRows(_ page: ArraySlice<UInt8>, number: Int, wanted: ((SQLiteRecord) -> Bool)?) -> [SQLiteRecord] {
        let header = page.startIndex + (number == 1 ? 100 : 0)
        guard header + 8 <= page.endIndex, page[header] == 0x0D else { return [] }
        let count = Int(page[header + 3]) << 8 | Int(page[header + 4])
        guard count > 0, header + 8 + 2 * count <= page.endIndex else { return [] }
        var records: [SQLiteRecord] = []
        var seen = Set<Int>()
        for index in 0..<count {
            let pointer = Int(page[header + 8 + 2 * index]) << 8 | Int(page[header + 9 + 2 * index])
            // A cell pointed at twice is read once.
            guard pointer >= 8, pointer < pageSize, seen.insert(pointer).inserted,
                let record = cell(page, at: page.startIndex + pointer, wanted: wanted)
            else { continue }
            records.append(record)
        }
        return records
    }

    /// The record of the table leaf cell at `offset`, its payload gathered from its overflow
    /// pages (the newest version of each) as far as they go.
    private func cell(_ page: ArraySlice<UInt8>, at offset: Int, wanted: ((SQLiteRecord) -> Bool)?) -> SQLiteRecord? {
        guard let (size, first) = SQLiteRecord.varint(page, at: offset), size >= 0, size < 1 << 28,
            let (rowid, second) = SQLiteRecord.varint(page, at: offset + first)
        else { return nil }
        let start = offset + first + second
        let payloadSize = Int(size)
        let maxLocal = usable - 35
        let minLocal = (usable - 12) * 32 / 255 - 23
        var local = payloadSize
        if payloadSize > maxLocal {
            let candidate = minLocal + (payloadSize - minLocal) % (usable - 4)
            local = candidate <= maxLocal ? candidate : minLocal
        }
        guard start + local <= page.endIndex else { return nil }
        if let wanted {
            guard let values = SQLiteRecord.values(page[start..<start + local], truncated: local < payloadSize),
                wanted(SQLiteRecord(rowid: rowid, values: values, truncated: local < payloadSize))
            else { return nil }
        }
        guard payloadBudget.remaining >= local else { return nil }
        var payload = Array(page[start..<start + local])
        payloadBudget.remaining -= local
        var truncated = false
        if local < payloadSize {
            guard start + local + 4 <= page.endIndex else { return nil }
            var next = Self.word(page, start + local - page.startIndex)
            var visited = Set<Int>()
            while payload.count < payloadSize {
                // A chain that comes back to a page, or that the budget cannot hold, ends here.
                guard next > 0, visited.insert(next).inserted, payloadBudget.remaining >= usable, let overflow = newest[next] else {
                    truncated = true
                    break
                }
                payloadBudget.remaining -= usable
                let take = min(usable - 4, payloadSize - payload.count)
                payload += overflow.dropFirst(4).prefix(take)
                next = Self.word(overflow, 0)
            }
        }
        guard let values = SQLiteRecord.values(payload[...], truncated: truncated) else { return nil }
        return SQLiteRecord(rowid: rowid, values: values, truncated: truncated)
    }
}
