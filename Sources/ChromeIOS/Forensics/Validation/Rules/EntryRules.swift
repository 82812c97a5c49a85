import FileSystemKit
import SessionForensics
import SessionFormats
import SessionModel
import SessionStore

/// Checks of what lies in a session directory and in its tab directories: Chrome deletes everything
/// that is not session_metadata.pb or the directory of a surviving tab (docs/chrome-ios-format.md,
/// how Chrome loads).
enum EntryRules {
    /// True for names of temporary files left by an interrupted atomic write: Foundation's
    /// (`.dat.nosync…`), this tool's, and the usual `….tmp` / `….tmp.XXXXXX` forms.
    static func isTemporaryName(_ name: String) -> Bool {
        AtomicWriter.isTemporaryName(name) || name.hasPrefix(".dat.nosync") || name.hasSuffix(".tmp")
            || name.contains(".tmp.")
    }

    /// The entries of a session directory that Chrome would delete.
    ///
    /// - Parameters:
    ///   - entries: the session directory's entries as read, the metadata file left out.
    ///   - directory: the session directory's path in the tree.
    ///   - kept: directory names of the tabs Chrome restores (checked by the tab rules).
    ///   - listed: directory names of every listed tab (the dropped ones are reported by list rules).
    static func sessionEntries(
        _ entries: [SessionDirectoryRead.Entry], directory: String,
        kept: Set<String>, listed: [String: TabID], scope: FindingScope
    ) -> [Finding] {
        var findings: [Finding] = []
        for entry in entries where !kept.contains(entry.name) && listed[entry.name] == nil {
            let name = entry.name
            let path = joinPath(directory, name)
            let here = scope.file(path)
            let contents = entry.children
            let rule = unlistedEntryRule(name, isDirectory: entry.kind == .directory, isEmpty: contents.isEmpty)
            if rule == .temporaryFile {
                findings.append(here.finding(.temporaryFile, "\(name) is a leftover temporary file; Chrome deletes it"))
            } else if entry.kind != .directory {
                findings.append(here.finding(.strayFile, "\(name) is not part of a session directory; Chrome deletes it"))
            } else if let id = Tab.id(fromDirectoryName: name), Tab.directoryName(for: id) == name {
                if rule == .strayFile {
                    findings.append(
                        here.finding(.strayFile, "\(name)/ is an empty directory of a tab that is not listed; Chrome deletes it"))
                } else {
                    findings.append(
                        here.finding(
                            .unreferencedEntry, tab: TabReference(index: nil, id: id),
                            "\(name)/ holds tab #\(id)'s files (\(contents.joined(separator: ", "))) but no listed tab refers to it; Chrome deletes it"
                        ))
                }
            } else if rule == .tabDirectoryNameInvalid {
                let owner = UInt64(name, radix: 16).flatMap { Int32(exactly: $0) }.flatMap { id in
                    listed[Tab.directoryName(for: id)].map { _ in id }
                }
                let whose = owner.map { "tab #\($0)'s directory must be named \(Tab.directoryName(for: $0)); " } ?? ""
                findings.append(
                    here.finding(
                        .tabDirectoryNameInvalid, tab: owner.map { TabReference(index: nil, id: $0) },
                        "\(name)/ is not a tab directory name (8 lower-case hex digits); \(whose)Chrome deletes it with its \(contents.count) entr\(contents.count == 1 ? "y" : "ies")"
                    ))
            } else {
                findings.append(here.finding(.strayFile, "\(name)/ is not part of a session directory; Chrome deletes it"))
            }
        }
        return findings
    }

    /// The rule an entry of a session directory breaks when no tab Chrome restores or drops owns
    /// it (the one classification: validate's findings above and the steps of repair that leave
    /// such entries in the set-aside copy both ask it): a temporary file's name, a file, an empty
    /// directory named as a tab's, a tab's directory with files, a directory named almost as a
    /// tab's, another directory.
    static func unlistedEntryRule(_ name: String, isDirectory: Bool, isEmpty: Bool) -> Rule {
        if isTemporaryName(name) { return .temporaryFile }
        guard isDirectory else { return .strayFile }
        if let id = Tab.id(fromDirectoryName: name), Tab.directoryName(for: id) == name { return isEmpty ? .strayFile : .unreferencedEntry }
        return TabDirectoryRead.looksLikeTabDirectory(name) ? .tabDirectoryNameInvalid : .strayFile
    }

    /// The entries of a restored tab's directory other than data.pb and state.pb: Chrome lists
    /// only the session directory when it deletes what it does not know, so these stay.
    static func tabEntries(names: [String], directory: String, tab: TabReference, scope: FindingScope) -> [Finding] {
        names.compactMap { name in
            if name == ProfileLayout.tabDataFile || name == ProfileLayout.tabStateFile { return nil }
            let here = scope.file(joinPath(directory, name))
            switch name {
            case ProfileLayout.transitionalTabMetadataFile:
                return here.finding(
                    .transitionalMetadata, tab: tab,
                    "metadata.pb of the transitional 2023 layout; Chrome no longer reads it and leaves it in place")
            case _ where isTemporaryName(name):
                return here.finding(
                    .tabDirectoryExtra, tab: tab, "\(name) is a leftover temporary file; Chrome ignores it and leaves it in place")
            default:
                return here.finding(
                    .tabDirectoryExtra, tab: tab, "\(name) is not part of a tab directory; Chrome ignores it and leaves it in place")
            }
        }
    }
}
