import Archive
import FileSystemKit
import SessionFormats
import SessionModel

/// What Chromium desktop does at launch with a profile's session files
/// (docs/chromium-desktop-format.md, "Which file Chrome reads"): for each type, the newest file
/// by the time in its name that it can take as the last session; every other file of that type
/// it deletes. The legacy names at the profile root the newest Chromium neither reads nor deletes.
public struct SNSSLoad: Sendable {
    /// One session file as Chrome meets it.
    public struct Candidate: Sendable {
        /// The index of the file's read in the input's sessions.
        public var session: Int
        public var type: ChromiumDesktopLayout.FileType
        /// The time in its name (microseconds since 1601); nil for a legacy name or a file given alone.
        public var time: Int64?
        /// Whether it has a legacy name (`Current Session`...), which the newest Chromium ignores.
        public var legacy: Bool
    }

    /// Every session file, `Sessions/` files of each type newest first, then the legacy ones.
    public var candidates: [Candidate]
    /// For each type, the index in `candidates` of the file Chrome takes as the last session.
    public var chosen: [ChromiumDesktopLayout.FileType: Int]

    /// Works out Chrome's choice over the session files `read` holds.
    public init(_ read: InputRead) {
        var candidates: [Candidate] = []
        for (index, session) in read.sessions.enumerated() where session.source.format == .snss {
            let name = lastPathComponent(session.source.path)
            if let parsed = ChromiumDesktopLayout.parse(name) {
                candidates.append(Candidate(session: index, type: parsed.type, time: parsed.time, legacy: false))
            } else {
                let legacy = ChromiumDesktopLayout.legacyNames[name]
                candidates.append(
                    Candidate(session: index, type: legacy ?? session.snss?.decoded?.type ?? .session, time: nil, legacy: legacy != nil))
            }
        }
        candidates.sort { lhs, rhs in
            if lhs.legacy != rhs.legacy { return !lhs.legacy }
            return (lhs.time ?? .min) > (rhs.time ?? .min)
        }
        var chosen: [ChromiumDesktopLayout.FileType: Int] = [:]
        // A file given alone (no time in its name, no legacy name) is what the user asks about.
        let alone = read.input.kind == .file
        for (position, candidate) in candidates.enumerated() where chosen[candidate.type] == nil && (!candidate.legacy || alone) {
            if read.sessions[candidate.session].snss?.decoded?.usableForLastSession ?? false { chosen[candidate.type] = position }
        }
        self.candidates = candidates
        self.chosen = chosen
    }

    /// The decoded file Chrome restores windows from, when there is one.
    public func restoredSession(_ read: InputRead) -> (candidate: Candidate, file: SNSSSessionFile)? {
        guard let position = chosen[.session], let file = read.sessions[candidates[position].session].snss?.decoded else { return nil }
        return (candidates[position], file)
    }
}
