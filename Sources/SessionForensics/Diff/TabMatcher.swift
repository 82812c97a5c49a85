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
        // Tabs are named by UUID when every tab of both sides has one (not across formats).
        let byUUID = before.allSatisfy { $0.stableIdentifier != nil } && after.allSatisfy { $0.stableIdentifier != nil }
        let key = { (tab: Tab) in TabKey(tab, byUUID: byUUID) }
        let usableBefore = usableIDs(before, byUUID: byUUID)
        let usableAfter = usableIDs(after, byUUID: byUUID)
        var partnerOfBefore = [Int?](repeating: nil, count: before.count)
        var partnerOfAfter = [Int?](repeating: nil, count: after.count)

        var afterByID: [TabKey: Int] = [:]
        for (index, tab) in after.enumerated() where usableAfter[index] { afterByID[key(tab)] = index }
        for (index, tab) in before.enumerated() where usableBefore[index] {
            if let partner = afterByID[key(tab)], isSameTab(tab, after[partner]) {
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

    /// Whether each tab's identity identifies it: its UUID where its browser names tabs so
    /// (Chrome's legacy format, Firefox for iOS), else a positive id; not repeated on its side.
    static func usableIDs(_ tabs: [Tab], byUUID: Bool = false) -> [Bool] {
        var counts: [TabKey: Int] = [:]
        for tab in tabs { counts[TabKey(tab, byUUID: byUUID), default: 0] += 1 }
        return tabs.map { (byUUID || $0.hasValidID) && counts[TabKey($0, byUUID: byUUID)] == 1 }
    }

    /// What identifies a tab across two versions of its window: its UUID (`byUUID`), else its id.
    enum TabKey: Hashable {
        case uuid(String)
        case id(TabID)

        init(_ tab: Tab, byUUID: Bool) {
            if byUUID, let uuid = tab.stableIdentifier { self = .uuid(uuid.uppercased()) } else { self = .id(tab.id) }
        }
    }
}
