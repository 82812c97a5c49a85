import SessionForensics
import SessionFormats
import SessionModel

/// The tab directories no listed tab owns that hold a usable history, indexed by the page each
/// history shows, so that repair finds the directory of a tab that needs a fresh id by looking
/// it up: each history is decoded once, however many tabs are matched.
///
/// A match is the first directory in order of id (then of listing) whose last committed page has
/// the tab's URL, and whose title is the tab's, or either title is empty; each directory is
/// matched at most once.
struct OrphanIndex {
    /// A directory that may still be matched.
    private struct Orphan {
        /// Its place in the order of ids (then of listing).
        var order: Int
        var position: Int
        var title: String
    }

    /// A list of orphans in order, with the place of the first one that may not be taken yet.
    private struct Bucket {
        var orphans: [Orphan] = []
        var next = 0
    }

    private var byURL: [String: Bucket] = [:]
    private var byPage: [Page: Bucket] = [:]
    private var taken: Set<Int> = []
    /// Histories decoded to build the index.
    private(set) var historiesRead = 0

    private struct Page: Hashable {
        var url: String
        var title: String
    }

    /// Indexes the directories of `directories` whose id is not in `listed`.
    init(_ directories: [TabDirectoryRead], listed: Set<TabID>) {
        let ordered = directories.indices.sorted { (directories[$0].id, $0) < (directories[$1].id, $1) }
        for (order, position) in ordered.enumerated() where !listed.contains(directories[position].id) {
            historiesRead += 1
            guard let history = SessionRebuilder.usableHistory(directories[position])?.history else { continue }
            let summary = Tab.summarising(history, id: directories[position].id)
            let orphan = Orphan(order: order, position: position, title: summary.title)
            byURL[summary.url, default: Bucket()].orphans.append(orphan)
            byPage[Page(url: summary.url, title: summary.title), default: Bucket()].orphans.append(orphan)
        }
    }

    /// Takes the first directory not taken yet whose history shows `url` with `title` (any title
    /// when either is empty): its position in the directories indexed, or nil.
    mutating func take(url: String, title: String) -> Int? {
        var best: Orphan?
        if title.isEmpty {
            best = first(&byURL[url])
        } else {
            for page in [Page(url: url, title: title), Page(url: url, title: "")] {
                if let orphan = first(&byPage[page]), orphan.order < best?.order ?? Int.max { best = orphan }
            }
        }
        guard let best else { return nil }
        taken.insert(best.position)
        return best.position
    }

    /// The first orphan of a bucket not taken yet (those taken before it are skipped for good).
    private func first(_ bucket: inout Bucket?) -> Orphan? {
        guard var found = bucket else { return nil }
        while found.next < found.orphans.count, taken.contains(found.orphans[found.next].position) { found.next += 1 }
        bucket = found
        return found.next < found.orphans.count ? found.orphans[found.next] : nil
    }
}
