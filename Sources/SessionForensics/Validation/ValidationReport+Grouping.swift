import SessionModel

/// The findings of a report grouped by session and tab, worst first, as the text view shows them.
extension ValidationReport {
    /// One session's findings.
    public struct SessionGroup: Sendable {
        public var session: SessionID
        public var incognito: Bool
        /// The worst of its findings.
        public var worst: Finding
        /// Findings about the session itself (no tab) first, then one group per tab.
        public var groups: [TabGroupOfFindings]
    }

    /// The findings about one tab (or about the session, when `tab` is nil).
    public struct TabGroupOfFindings: Sendable {
        public var tab: TabReference?
        /// The worst of its findings (the first).
        public var worst: Finding
        public var findings: [Finding]
    }

    /// Sessions with the worst findings first (errors, then warnings, then info; ties keep the
    /// input's order); within a session, its own findings first, then tabs worst first.
    public func groupedWorstFirst() -> [SessionGroup] {
        var sessionOrder: [String] = []
        var bySession: [String: [Finding]] = [:]
        for finding in findings {
            let key = "\(finding.incognito ? 1 : 0)/\(finding.session)"
            if bySession[key] == nil { sessionOrder.append(key) }
            bySession[key, default: []].append(finding)
        }
        let sessions = sessionOrder.compactMap { key -> SessionGroup? in
            guard let sessionFindings = bySession[key], let first = sessionFindings.first else { return nil }
            let groups = Self.tabGroups(sessionFindings)
            let worst = groups.map(\.worst).min { $0.isWorse(than: $1) } ?? first
            return SessionGroup(session: first.session, incognito: first.incognito, worst: worst, groups: groups)
        }
        return stableSorted(sessions) { $0.worst.isWorse(than: $1.worst) }
    }

    private static func tabGroups(_ findings: [Finding]) -> [TabGroupOfFindings] {
        var order: [TabReference?] = []
        var byTab: [TabReference?: [Finding]] = [:]
        for finding in findings {
            // Findings about a tab directory without a listed position are grouped by tab id.
            let key: TabReference? = finding.tab
            if byTab[key] == nil { order.append(key) }
            byTab[key, default: []].append(finding)
        }
        let groups = order.compactMap { key -> TabGroupOfFindings? in
            let tabFindings = stableSorted(byTab[key] ?? []) { $0.isWorse(than: $1) }
            guard let worst = tabFindings.first else { return nil }
            return TabGroupOfFindings(tab: key, worst: worst, findings: tabFindings)
        }
        let session = groups.filter { $0.tab == nil }
        let tabs = stableSorted(groups.filter { $0.tab != nil }) { $0.worst.isWorse(than: $1.worst) }
        return session + tabs
    }
}

/// `values` sorted by `areInIncreasingOrder`, equal elements keeping their order.
func stableSorted<T>(_ values: [T], by areInIncreasingOrder: (T, T) -> Bool) -> [T] {
    values.enumerated().sorted { lhs, rhs in
        if areInIncreasingOrder(lhs.element, rhs.element) { return true }
        if areInIncreasingOrder(rhs.element, lhs.element) { return false }
        return lhs.offset < rhs.offset
    }.map(\.element)
}
