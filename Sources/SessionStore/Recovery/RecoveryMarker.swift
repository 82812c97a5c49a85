/// The clean-exit marker: what the store last recorded about the app's state, kept in
/// `<profile>/sessionctl-recovery.txt`, outside `SessionStorage/<id>/` (Chrome deletes unknown
/// files there) and outside `OTR/`. It holds no URL or title.
///
/// Text, one `key=value` per line after a header line, written through the `AtomicWriter`.
public struct RecoveryMarker: Sendable, Equatable {
    /// What the app was doing when the marker was written.
    public enum State: String, Sendable {
        /// Running after a complete restore: finding this at launch means the app did not exit cleanly.
        case running
        /// Restoring sessions: finding this at launch means the app crashed during restore.
        case restoring
        /// Exited cleanly.
        case clean
    }

    /// The marker's file name inside the profile directory.
    public static let fileName = "sessionctl-recovery.txt"
    static let header = "sessionctl-recovery/1"

    /// The recorded state.
    public var state: State
    /// Consecutive launches that crashed while restoring.
    public var restoreCrashes: Int

    public init(state: State, restoreCrashes: Int = 0) {
        self.state = state
        self.restoreCrashes = restoreCrashes
    }

    /// The file's bytes.
    public var encoded: [UInt8] {
        Array("\(RecoveryMarker.header)\nstate=\(state.rawValue)\nrestore-crashes=\(restoreCrashes)\n".utf8)
    }

    /// Parses a marker file; nil when it is not one (then the previous exit counts as unclean).
    public init?(bytes: [UInt8]) {
        var values: [String: String] = [:]
        if bytes.allSatisfy({ $0 < 0x80 && $0 != UInt8(ascii: "\r") }) {
            // ASCII without a carriage return (what the store writes): its lines and their `=` are
            // where the characters' would be, so they are found byte by byte.
            let lines = bytes.split(separator: UInt8(ascii: "\n"))
            guard let first = lines.first, first.elementsEqual(RecoveryMarker.header.utf8) else { return nil }
            for line in lines.dropFirst() {
                guard let equals = line.firstIndex(of: UInt8(ascii: "=")) else { return nil }
                values[String(decoding: line[..<equals], as: UTF8.self)] = String(decoding: line[(equals + 1)...], as: UTF8.self)
            }
        } else {
            // By characters: "\r\n" is one, and a combining mark joins the `=` before it.
            let lines = String(decoding: bytes, as: UTF8.self).split(separator: "\n").map(String.init)
            guard lines.first == RecoveryMarker.header else { return nil }
            for line in lines.dropFirst() {
                guard let equals = line.firstIndex(of: "=") else { return nil }
                values[String(line[..<equals])] = String(line[line.index(after: equals)...])
            }
        }
        guard let state = values["state"].flatMap(State.init(rawValue:)),
            let crashes = values["restore-crashes"].flatMap({ Int($0) }), crashes >= 0
        else { return nil }
        self.init(state: state, restoreCrashes: crashes)
    }
}
