import Archive
import FileSystemKit
import SessionFormats
import SessionModel

/// Where replay keeps each tab, by its `SessionID`: a table indexed by the id for the small ids
/// Chrome gives (it counts them up from 1 in each run), a dictionary for any other.
///
/// A session file names a tab in nearly every record, and hashing the id for a dictionary at
/// each one cost a tenth of a 10,000-tab file's replay. The table grows to twice the largest id
/// it holds, never past `tableLimit` entries (4 MiB), however large the ids a file gives.
/// `SessionIDSlotsTests` compares it with a dictionary on random ids.
struct SessionIDSlots {
    /// The largest table: ids from it on go to `others`.
    static let tableLimit = 1 << 20

    /// For each id below its count, its slot plus one (0: none).
    private var table: [Int32] = []
    private var others: [Int32: Int] = [:]

    /// The slot of `id`, if it has one.
    subscript(id: Int32) -> Int? {
        if id >= 0, Int(id) < table.count {
            let stored = table[Int(id)]
            return stored == 0 ? nil : Int(stored) - 1
        }
        return others[id]
    }

    /// Gives `id` the slot `slot` (a file of at most `maximumFileSize` bytes names far fewer
    /// than `Int32.max` tabs: a slot always fits).
    mutating func set(_ id: Int32, _ slot: Int) {
        if id >= 0, Int(id) < Self.tableLimit {
            if Int(id) >= table.count {
                table.append(contentsOf: repeatElement(0, count: min(max(Int(id) * 2, 64), Self.tableLimit) - table.count))
            }
            table[Int(id)] = Int32(clamping: slot + 1)
        } else {
            others[id] = slot
        }
    }

    /// Takes `id`'s slot away, returning it.
    mutating func remove(_ id: Int32) -> Int? {
        if id >= 0, Int(id) < table.count, table[Int(id)] != 0 {
            let slot = Int(table[Int(id)]) - 1
            table[Int(id)] = 0
            return slot
        }
        return others.removeValue(forKey: id)
    }
}
