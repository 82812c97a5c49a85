import SessionModel

/// Compares two sets of sessions (two profiles, session directories or files) tab by tab.
///
/// Sessions are matched by id and incognito flag; tabs by tab id (see `TabMatcher` for tabs
/// without usable ids). The result says which sessions were added or removed, and per session
/// which tabs were added, removed, moved or changed, and how the active index, pinned count and
/// groups differ.
public enum Differ {
    /// Compares `before` with `after`.
    ///
    /// - Parameter pairingLoneSessions: when each side holds exactly one session, compare those two
    ///   whatever their ids (as for two session directories or files given directly).
    public static func compare(_ before: [Session], _ after: [Session], pairingLoneSessions: Bool = false) -> ProfileDiff {
        if pairingLoneSessions, before.count == 1, after.count == 1 {
            return ProfileDiff(sessions: [compare(before[0], after[0])])
        }
        struct Key: Hashable {
            var id: SessionID
            var incognito: Bool
        }
        var afterByKey: [Key: Session] = [:]
        for session in after where afterByKey[Key(id: session.id, incognito: session.incognito)] == nil {
            afterByKey[Key(id: session.id, incognito: session.incognito)] = session
        }
        var seen = Set<Key>()
        var results: [SessionDiff] = []
        for session in before {
            let key = Key(id: session.id, incognito: session.incognito)
            guard seen.insert(key).inserted else { continue }
            if let other = afterByKey[key] {
                results.append(compare(session, other))
            } else {
                results.append(SessionDiffer.removed(session))
            }
        }
        for session in after where seen.insert(Key(id: session.id, incognito: session.incognito)).inserted {
            results.append(SessionDiffer.added(session))
        }
        return ProfileDiff(
            sessions: results.sorted { lhs, rhs in
                if lhs.incognito != rhs.incognito { return !lhs.incognito }
                return lhs.id.utf8.lexicographicallyPrecedes(rhs.id.utf8)
            })
    }

    /// Compares two versions of one session, whatever their ids.
    public static func compare(_ before: Session, _ after: Session) -> SessionDiff {
        SessionDiffer.compare(before, after)
    }
}
