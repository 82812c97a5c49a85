import SessionModel

/// Which tab on one side is which tab on the other.
struct TabMatching: Sendable {
    /// Matched tabs as (index before, index after), in the order of the first side.
    var pairs: [(before: Int, after: Int)]
    /// Indexes of tabs only on the first side.
    var onlyBefore: [Int]
    /// Indexes of tabs only on the second side.
    var onlyAfter: [Int]
    /// For every tab of the first side, a number that a matched tab shares with its partner.
    var identityBefore: [Int]
    /// For every tab of the second side, a number that a matched tab shares with its partner.
    var identityAfter: [Int]
}

/// Matches the tabs of two versions of a session: by tab id where an id is usable (positive and
/// unique on its side) and, when both histories were read, they are the same tab's (the same
/// creation time, or a page in common: a repair that gave a tab's id to another tab does not make
/// them one); a tab left over (as in legacy sessions, which have no usable ids) is matched to an
/// unmatched tab of the other side with the same URL and creation time, in order.
enum TabMatcher {
    static func match(_ before: [Tab], _ after: [Tab]) -> TabMatching {
        let usableBefore = usableIDs(before)
        let usableAfter = usableIDs(after)
        var partnerOfBefore = [Int?](repeating: nil, count: before.count)
        var partnerOfAfter = [Int?](repeating: nil, count: after.count)

        var afterByID: [TabID: Int] = [:]
        for (index, tab) in after.enumerated() where usableAfter[index] { afterByID[tab.id] = index }
        for (index, tab) in before.enumerated() where usableBefore[index] {
            if let partner = afterByID[tab.id], isSameTab(tab, after[partner]) {
                partnerOfBefore[index] = partner
                partnerOfAfter[partner] = index
            }
        }

        struct FallbackKey: Hashable {
            var url: String
            var creationTime: Timestamp
        }
        var waiting: [FallbackKey: [Int]] = [:]
        for (index, tab) in after.enumerated() where partnerOfAfter[index] == nil {
            waiting[FallbackKey(url: tab.url, creationTime: tab.creationTime), default: []].append(index)
        }
        for (index, tab) in before.enumerated() where partnerOfBefore[index] == nil {
            let key = FallbackKey(url: tab.url, creationTime: tab.creationTime)
            guard let candidates = waiting[key],
                let slot = candidates.firstIndex(where: { !usableBefore[index] || !usableAfter[$0] })
            else { continue }
            let partner = candidates[slot]
            waiting[key]?.remove(at: slot)
            partnerOfBefore[index] = partner
            partnerOfAfter[partner] = index
        }

        var matching = TabMatching(
            pairs: [], onlyBefore: [], onlyAfter: [],
            identityBefore: Array(repeating: 0, count: before.count),
            identityAfter: Array(repeating: 0, count: after.count))
        var nextIdentity = 0
        for index in before.indices {
            matching.identityBefore[index] = nextIdentity
            if let partner = partnerOfBefore[index] {
                matching.pairs.append((index, partner))
                matching.identityAfter[partner] = nextIdentity
            } else {
                matching.onlyBefore.append(index)
            }
            nextIdentity += 1
        }
        for index in after.indices where partnerOfAfter[index] == nil {
            matching.onlyAfter.append(index)
            matching.identityAfter[index] = nextIdentity
            nextIdentity += 1
        }
        return matching
    }

    /// Whether two tabs with the same id are one tab: yes unless both histories were read and they
    /// have neither their creation time nor any page in common.
    static func isSameTab(_ before: Tab, _ after: Tab) -> Bool {
        guard let first = before.history?.items, let second = after.history?.items, !first.isEmpty, !second.isEmpty,
            before.creationTime != after.creationTime
        else { return true }
        let pages = Set(first.map(\.url))
        return second.contains { pages.contains($0.url) }
    }

    /// Whether each tab's id identifies it: positive and not repeated on its side.
    static func usableIDs(_ tabs: [Tab]) -> [Bool] {
        var counts: [TabID: Int] = [:]
        for tab in tabs { counts[tab.id, default: 0] += 1 }
        return tabs.map { $0.hasValidID && counts[$0.id] == 1 }
    }
}
