import FileSystemKit

/// What `CommandJudge` holds each crash state of compress, decompress or report to, from the
/// uninterrupted run: the input as it was before, the output as that run wrote it, and the names
/// the output's directory then held. Judged from the files alone.
///
/// After the crash the input is unchanged (`inputKept`) and the output absent or whole
/// (`atomicity`): byte for byte what the uninterrupted run writes, for a directory the same tree of
/// names and bytes. None of these commands replaces an existing output (they refuse it), so no
/// older output is there to keep. After the re-run the input is unchanged, the output whole
/// (`convergence`: a re-run that finds it whole refuses to replace it and leaves it so), and its
/// directory holds exactly the names it holds after the uninterrupted run (`hygiene`: no
/// temporary is left, whatever it is named).
struct OutputCheck: Sendable {
    let layout: OutputLayout
    /// The content hash of the input before the run.
    let inputContent: UInt64
    /// The content hash of the output the uninterrupted run wrote.
    let outputContent: UInt64
    /// The output's regular files (the output itself when it is a file: path ""), with their contents' hashes.
    let outputFiles: [String: UInt64]
    /// The names in the output's directory after the uninterrupted run.
    let names: Set<String>

    /// The content hash (names and bytes, see `ModelTree.contentHash`) of what is at `path`; nil when nothing is.
    static func content(_ fileSystem: ModelFileSystem, _ path: String) -> UInt64? {
        fileSystem.resolve(path).flatMap { fileSystem.tree.contentHash(of: $0, leavingOutTransient: false) }
    }

    /// The check for the run that left `fileSystem` (its output written), given the input's
    /// content before it; nil when the run wrote no output.
    init?(after fileSystem: ModelFileSystem, layout: OutputLayout, inputContent: UInt64) {
        guard let output = OutputCheck.content(fileSystem, layout.output) else { return nil }
        self.layout = layout
        self.inputContent = inputContent
        outputContent = output
        outputFiles = OutputCheck.files(fileSystem, layout.output)
        names = Set((try? fileSystem.list(parentPath(layout.output))) ?? [])
    }

    /// The findings of a state as the crash left it.
    func judgeCrashed(_ fileSystem: ModelFileSystem) -> [Finding] {
        var findings = inputFindings(fileSystem, when: "after the crash")
        if let found = OutputCheck.content(fileSystem, layout.output), found != outputContent {
            findings.append(Finding(.atomicity, "after the crash, \(layout.output) is neither absent nor whole: \(difference(fileSystem))"))
        }
        return findings
    }

    /// The findings after the re-run (`failure`: why it failed, if it did).
    func judgeRerun(_ fileSystem: ModelFileSystem, failure: String?) -> [Finding] {
        var findings = inputFindings(fileSystem, when: "after the re-run")
        let found = OutputCheck.content(fileSystem, layout.output)
        if found != outputContent {
            let what = found == nil ? "is absent" : "is not whole: \(difference(fileSystem))"
            findings.append(
                Finding(
                    .convergence,
                    "after the re-run, \(layout.output) \(what)\(failure.map { " (the re-run failed: \($0))" } ?? "")"))
        }
        let left = Set((try? fileSystem.list(parentPath(layout.output))) ?? []).subtracting(names)
        if !left.isEmpty {
            let shown = left.sorted().prefix(3).map { joinPath(parentPath(layout.output), $0) }.joined(separator: ", ")
            findings.append(
                Finding(
                    .hygiene, "after the re-run, \(shown)\(left.count > 3 ? " and \(left.count - 3) more" : "") is left beside the output"))
        }
        return findings
    }

    private func inputFindings(_ fileSystem: ModelFileSystem, when: String) -> [Finding] {
        guard OutputCheck.content(fileSystem, layout.input) != inputContent else { return [] }
        return [Finding(.inputKept, "\(when), the input \(layout.input) is not what it was before the command")]
    }

    /// How the output found differs from the uninterrupted run's, for a person.
    private func difference(_ fileSystem: ModelFileSystem) -> String {
        let found = OutputCheck.files(fileSystem, layout.output)
        if found.keys.count == 1, found.keys.first == "", outputFiles.keys.first == "" {
            return "\(fileSystem.size(of: layout.output) ?? 0) bytes that are not the uninterrupted run's"
        }
        let missing = outputFiles.keys.filter { found[$0] == nil }.sorted()
        let extra = found.keys.filter { outputFiles[$0] == nil }.sorted()
        let changed = found.keys.filter { outputFiles[$0] != nil && outputFiles[$0] != found[$0] }.sorted()
        var parts: [String] = []
        for (label, paths) in [("missing", missing), ("different", changed), ("not the uninterrupted run's", extra)] where !paths.isEmpty {
            parts.append(
                "\(label) \(paths.prefix(3).map { $0.isEmpty ? "(the file itself)" : $0 }.joined(separator: ", "))\(paths.count > 3 ? " and \(paths.count - 3) more" : "")"
            )
        }
        return parts.isEmpty ? "its directories differ from the uninterrupted run's" : parts.joined(separator: "; ")
    }

    /// The regular files at or below `path` (path "" for `path` itself when it is a file) with their contents' hashes.
    private static func files(_ fileSystem: ModelFileSystem, _ path: String) -> [String: UInt64] {
        if fileSystem.kind(of: path) == .file { return fileSystem.blob(at: path).map { ["": $0.hash] } ?? [:] }
        var found: [String: UInt64] = [:]
        for file in FileListing.files(fileSystem, under: path, strict: false) ?? [] {
            found[file] = fileSystem.blob(at: joinPath(path, file))?.hash
        }
        return found
    }
}
