import FileSystemKit
import SessionFormats
import SessionStore

/// At each acknowledged save, the disk and the store's own record of the save must both hold
/// the windows and tabs the workload's events say the user has (`WorkloadModel`): every save
/// writes every changed window, so from an acknowledgement on nothing the user did is unsaved.
///
/// A save acknowledged before it is committed, or a save that skipped a window, fails here
/// whatever the store reports: the expectation comes from the workload, not from the store.
enum SaveContractOracle {
    /// The findings for acknowledgement `record`, with `model` the workload's windows at that
    /// moment and `fileSystem` the disk as the recording has it then.
    static func check(_ record: SaveRecord, model: [String: [String]], fileSystem: any ReadableFileSystem, profile: String) -> [Finding] {
        var findings: [Finding] = []
        let label = "save #\(record.sequence) (\(record.trigger.rawValue))"
        let disk = windowsOnDisk(fileSystem, profile: profile)
        for window in Set(model.keys).union(disk.keys).sorted() where model[window] != disk[window] {
            findings.append(
                Finding(
                    .durability,
                    "\(label) was acknowledged, but on disk window \(window) holds \(describe(disk[window])) where the workload has \(describe(model[window]))"
                ))
        }
        for session in record.sessions {
            let window = (session.incognito ? "OTR/" : "") + session.id
            let claimed = session.tabs.map(\.url).sorted()
            if claimed != model[window] ?? [] {
                findings.append(
                    Finding(
                        .durability,
                        "\(label) reports window \(window) saved with \(describe(claimed)) where the workload has \(describe(model[window]))"
                    ))
            }
        }
        return findings
    }

    /// Each live window's tab URLs, sorted, as Chrome restores them (after its loading rules drop
    /// tabs; windows without tabs left out).
    static func windowsOnDisk(_ fileSystem: any ReadableFileSystem, profile: String) -> [String: [String]] {
        guard let input = try? InputOpener.open(profile, fileSystem: fileSystem), input.kind == .profile else { return [:] }
        var windows: [String: [String]] = [:]
        for stored in SessionReader(input: input).readEach(history: false).sessions {
            var session = stored
            if stored.format == .optimized {
                // An invalid id loses the whole window; otherwise Chrome's filter drops tabs.
                session = ChromeLoadSemantics.restore(stored).session
                if stored.tabs.contains(where: { $0.id <= 0 }) { session.tabs = [] }
            }
            guard !session.tabs.isEmpty else { continue }
            windows[(session.incognito ? "OTR/" : "") + session.id] = session.tabs.map(\.url).sorted()
        }
        return windows
    }

    private static func describe(_ urls: [String]?) -> String {
        guard let urls, !urls.isEmpty else { return "no tab" }
        let shown = urls.prefix(3).joined(separator: ", ")
        return "\(urls.count) tab\(urls.count == 1 ? "" : "s") (\(shown)\(urls.count > 3 ? ", ..." : ""))"
    }
}
