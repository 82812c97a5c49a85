/// A crash state described for people: where the crash happened, what was on its way to the disk,
/// what reached it, and what had been acknowledged.
public enum FailureExplanation {
    static func lines(recording: Recording, model: PersistenceModel, state: CrashState, pending: [Int]) -> [String] {
        let operations = recording.operations
        var lines: [String] = []
        let point = state.crashPoint
        if point == 0 {
            lines.append("crash before the first of \(operations.count) operations")
        } else {
            let last = operations[point - 1]
            lines.append("crash after operation \(point) of \(operations.count): \(last.summary) (\(last.context))")
            if let site = last.site.description { lines.append("  called from \(site)") }
        }
        if point < operations.count, model == .process, let tear = state.tear, tear.operation == point {
            lines.append("in progress: operation \(point + 1), \(operations[point].summary), \(describe(tear))")
        }
        if !pending.isEmpty {
            lines.append(
                "not yet durable at the crash (\(model.rawValue) model): \(pending.count) operation\(pending.count == 1 ? "" : "s")")
            for index in pending.suffix(12) {
                var status = state.selection.keeps(index) ? "reached the disk" : "lost"
                if let tear = state.tear, tear.operation == index { status = describe(tear) }
                lines.append("  #\(index + 1) \(operations[index].summary): \(status)")
            }
            if pending.count > 12 { lines.append("  (\(pending.count - 12) earlier ones not shown)") }
        }
        if let last = recording.acknowledgements(before: point).last {
            lines.append("last acknowledged: \(last.label), after operation \(last.afterOperations)")
        } else {
            lines.append("no save was acknowledged yet")
        }
        if let steps = state.recoveryCrash {
            lines.append(
                "then recovery ran and crashed after \(steps) of its own operations\(state.recoveryCut.map { ", its next write cut after \($0) bytes" } ?? "")"
            )
        }
        return lines
    }

    static func describe(_ tear: Tear) -> String {
        switch tear {
        case .cut(_, let bytes): return "cut after \(bytes) bytes"
        case .pieces(_, let pieces, let aligned, let kept, let garbage, let grown):
            let arrived = (0..<pieces).filter { kept & (UInt64(1) << UInt64($0)) != 0 }.map { String($0 + 1) }
            let unit = aligned ? "\(Tear.blockSize)-byte block" : "piece"
            return
                "torn: of \(pieces) \(unit)s, \(arrived.isEmpty ? "none" : arrived.joined(separator: ", ")) arrived, the rest \(garbage ? "garbage" : "zeros")\(grown ? ", size grown" : "")"
        case .sector(_, let sector, let length): return "torn: \(length) bytes of garbage at the end of sector \(sector + 1)"
        case .renameSteps(_, let steps):
            let names = ["unlink destination", "unlink source", "link destination"]
            let done = (0..<3).filter { steps & (1 << $0) != 0 }.map { names[$0] }
            return "torn rename: only \(done.joined(separator: " and "))"
        }
    }
}
