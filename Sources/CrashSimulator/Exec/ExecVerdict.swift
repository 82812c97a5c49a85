/// Failing crash states of a traced program said for people: what led to each (grouped by it),
/// and the first unsafe step of the program ("renamed X over Y before fsync of its data").
struct ExecVerdict {
    let recording: Recording
    let model: PersistenceModel
    /// The operations not yet certain at each crash point of the failures said, found in one walk
    /// of the recording (not one walk a failure: a run may keep a hundred thousand).
    private let pendingAt: [Int: [Int]]

    /// The verdict of the failing states of `recording` at `crashPoints`.
    init(recording: Recording, model: PersistenceModel, seed: UInt64, crashPoints: Set<Int>) {
        self.recording = recording
        self.model = model
        var found: [Int: [Int]] = [:]
        if let last = crashPoints.max() {
            Explorer.walk(recording, CrashStateGenerator(model: model, seed: seed), through: last, apply: { _ in }) { crashPoint, point in
                if crashPoints.contains(crashPoint) { found[crashPoint] = point.pending }
                return true
            }
        }
        pendingAt = found
    }

    /// The operations not yet certain at `crashPoint` (one of those the verdict was made for).
    func pending(at crashPoint: Int) -> [Int] { pendingAt[crashPoint] ?? [] }

    /// The operations a state lost, and the one it tore.
    private func losses(_ state: CrashState) -> (lost: [Int], torn: Tear?) {
        (pending(at: state.crashPoint).filter { !state.selection.keeps($0) }, state.tear)
    }

    /// What led to a failing state, the same words for states that fail for the same calls.
    func cause(of state: CrashState) -> String {
        let operations = recording.operations
        let (lost, torn) = losses(state)
        var parts = lost.prefix(3).map { "\(operations[$0].summary) lost" }
        if lost.count > 3 { parts.append("\(lost.count - 3) more lost") }
        if let torn, torn.operation < operations.count {
            if case .cut = torn {
                parts.append("cut in the middle of \(operations[torn.operation].summary)")
            } else {
                parts.append("\(operations[torn.operation].summary) \(FailureExplanation.describe(torn))")
            }
        }
        if parts.isEmpty {
            return state.crashPoint == 0 ? "a crash before the first call" : "a crash after \(operations[state.crashPoint - 1].summary)"
        }
        return parts.joined(separator: "; ")
    }

    /// The program's step that made `state` possible, in words.
    func unsafeStep(_ state: CrashState) -> String {
        let operations = recording.operations
        let (lost, torn) = losses(state)
        let lostSet = Set(lost)
        for index in lost {
            guard case .write(let inode, _, _, _, _) = operations[index].effect else {
                if case .truncate(let inode, _, _, _) = operations[index].effect,
                    let rename = renameAfter(index, of: inode, keeping: lostSet, before: state.crashPoint)
                {
                    return
                        "renamed \(operations[rename].path) over \(operations[rename].destination ?? "?") before fsync of its data (\(operations[index].summary) lost)"
                }
                continue
            }
            if let rename = renameAfter(index, of: inode, keeping: lostSet, before: state.crashPoint) {
                return
                    "renamed \(operations[rename].path) over \(operations[rename].destination ?? "?") before fsync of its data (\(operations[index].summary) lost)"
            }
        }
        if let entry = lost.first(where: { [.create, .rename, .link, .unlink, .mkdir, .rmdir].contains(operations[$0].kind) }) {
            return "\(operations[entry].summary) without fsync of its directory (lost in the crash)"
        }
        if let torn, torn.operation < operations.count {
            let operation = operations[torn.operation]
            if case .renameSteps = torn { return "\(operation.summary): \(FailureExplanation.describe(torn))" }
            return "\(operation.summary) in place: \(FailureExplanation.describe(torn))"
        }
        if let first = lost.first { return "\(operations[first].summary) not made durable (lost in the crash)" }
        guard state.crashPoint > 0 else { return "the starting directory itself fails the checker" }
        let last = operations[state.crashPoint - 1]
        if last.kind == .truncate {
            return "truncated \(last.path) in place before writing its new content (a crash after it leaves the file cut)"
        }
        if last.kind == .write { return "wrote \(last.path) in place (a crash after \(last.summary) leaves it half-written)" }
        return "a crash after \(last.summary) leaves the directory failing the checker"
    }

    /// The first rename after `index`, before the crash and not lost, that moves `inode`.
    private func renameAfter(_ index: Int, of inode: Int32, keeping lost: Set<Int>, before crashPoint: Int) -> Int? {
        let operations = recording.operations
        let end = min(crashPoint, operations.count)
        guard index + 1 < end else { return nil }
        for later in (index + 1)..<end where !lost.contains(later) {
            if case .rename(_, _, _, _, let moved) = operations[later].effect, moved == inode { return later }
        }
        return nil
    }

    /// The state explained, as `--replay` explains one.
    func explanation(of state: CrashState) -> [String] {
        FailureExplanation.lines(recording: recording, model: model, state: state, pending: pending(at: state.crashPoint))
    }
}
