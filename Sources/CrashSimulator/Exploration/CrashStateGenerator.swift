/// Generates the crash states of one crash point under a persistence model
/// (docs/crash-simulation.md, the crash states, A to E).
///
/// - A: the prefix (every issued operation on disk), at every crash point.
/// - Under `process`: the call in progress cut at byte 1, at thirds, at every 512-byte boundary
///   and one byte short (every byte for writes of up to 16 bytes).
/// - Under `pessimistic`, at each checkpoint (before a barrier, at an acknowledgement, at the end):
///   B: each operation that became pending since the previous checkpoint omitted, the rest
///   applied; C: each such write torn into 1, 3 and block-aligned pieces (holes zero-filled, or
///   garbage; file size grown or not) and each such rename split into its steps; D: every subset
///   of the pending operations when there are at most `exhaustiveLimit`, else `samples` seeded
///   random subsets; E: garbage over the end of the first and last 512-byte sector of each such write.
public struct CrashStateGenerator: Sendable {
    public let model: PersistenceModel
    public let seed: UInt64
    /// Pending sets up to this size are explored exhaustively (2^n subsets).
    public var exhaustiveLimit = 8
    /// Random subsets drawn beyond that.
    public var samples = 48

    public init(model: PersistenceModel, seed: UInt64) {
        self.model = model
        self.seed = seed
    }

    /// The states of crash point `crashPoint`.
    ///
    /// - Parameters:
    ///   - operations: the recording's operations.
    ///   - pending: the operations issued before the crash point and not yet certain, ascending.
    ///   - fresh: those of them issued since the previous checkpoint.
    ///   - checkpoint: whether the crash point is a checkpoint (see the type's description).
    public func states(at crashPoint: Int, operations: [FileOperation], pending: [Int], fresh: [Int], checkpoint: Bool) -> [CrashState] {
        var states = [CrashState(crashPoint: crashPoint)]
        switch model {
        case .process:
            if crashPoint < operations.count, case .write(_, _, let bytes, _, _) = operations[crashPoint].effect {
                for cut in Self.cutPoints(bytes.count) {
                    states.append(CrashState(crashPoint: crashPoint, tear: .cut(operation: crashPoint, bytes: cut)))
                }
            }
        case .pessimistic:
            guard checkpoint, !pending.isEmpty else { return states }
            states += subsets(at: crashPoint, pending: pending, fresh: fresh)
            for index in fresh {
                for tear in tears(of: index, effect: operations[index].effect) {
                    states.append(CrashState(crashPoint: crashPoint, selection: .all, tear: tear))
                }
            }
        }
        return states
    }

    /// B and D: subsets of the pending operations (the full set, A, is already listed).
    private func subsets(at crashPoint: Int, pending: [Int], fresh: [Int]) -> [CrashState] {
        var result: [CrashState] = []
        if pending.count <= exhaustiveLimit {
            let full = (UInt64(1) << UInt64(pending.count)) - 1
            for bits in 0..<full {
                result.append(CrashState(crashPoint: crashPoint, selection: .mask(bits, of: pending)))
            }
            return result
        }
        result.append(CrashState(crashPoint: crashPoint, selection: .none))
        for index in fresh { result.append(CrashState(crashPoint: crashPoint, selection: .allBut([index]))) }
        var generator = SeededGenerator(seed: ContentHash.combine(seed, UInt64(crashPoint)))
        for _ in 0..<samples {
            var kept: [Int] = []
            var word: UInt64 = 0
            for (position, index) in pending.enumerated() {
                if position % 64 == 0 { word = generator.next() }
                if word & (UInt64(1) << UInt64(position % 64)) != 0 { kept.append(index) }
            }
            let dropped = pending.count - kept.count
            if dropped == 0 { continue }
            if kept.isEmpty {
                result.append(CrashState(crashPoint: crashPoint, selection: .none))
            } else if dropped < kept.count {
                let keptSet = Set(kept)
                result.append(CrashState(crashPoint: crashPoint, selection: .allBut(pending.filter { !keptSet.contains($0) })))
            } else {
                result.append(CrashState(crashPoint: crashPoint, selection: .only(kept)))
            }
        }
        return result
    }

    /// C and E: the torn forms of one pending operation.
    func tears(of index: Int, effect: Effect) -> [Tear] {
        switch effect {
        case .rename:
            return (1...6).map { Tear.renameSteps(operation: index, steps: $0) }
        case .write(_, let offset, let bytes, _, _):
            let length = bytes.count
            guard length > 0 else { return [] }
            var tears: [Tear] = []
            // One piece: the size grew, the data never came (zeros or garbage).
            tears.append(.pieces(operation: index, pieces: 1, aligned: false, kept: 0, garbage: false, grown: true))
            tears.append(.pieces(operation: index, pieces: 1, aligned: false, kept: 0, garbage: true, grown: true))
            if length >= 3 {
                for kept: UInt64 in 0..<7 {
                    tears.append(.pieces(operation: index, pieces: 3, aligned: false, kept: kept, garbage: false, grown: true))
                    if kept != 0 && kept != 1 && kept != 3 {
                        tears.append(.pieces(operation: index, pieces: 3, aligned: false, kept: kept, garbage: false, grown: false))
                    }
                }
                tears.append(.pieces(operation: index, pieces: 3, aligned: false, kept: 0b101, garbage: true, grown: true))
                tears.append(.pieces(operation: index, pieces: 3, aligned: false, kept: 0b011, garbage: false, grown: false))
                tears.append(.pieces(operation: index, pieces: 3, aligned: false, kept: 0b001, garbage: false, grown: false))
            }
            let blocks = TornWrite.blockCount(length: length, offset: offset)
            if blocks >= 2 {
                let all = (UInt64(1) << UInt64(min(blocks, 63))) - 1
                if blocks <= 4 {
                    for kept in 0..<all {
                        tears.append(.pieces(operation: index, pieces: blocks, aligned: true, kept: kept, garbage: false, grown: true))
                    }
                } else {
                    for prefix in 1..<min(blocks, 63) {
                        let kept = (UInt64(1) << UInt64(prefix)) - 1
                        tears.append(.pieces(operation: index, pieces: blocks, aligned: true, kept: kept, garbage: false, grown: false))
                        tears.append(.pieces(operation: index, pieces: blocks, aligned: true, kept: kept, garbage: false, grown: true))
                    }
                    for missing in 0..<min(blocks, 63) {
                        tears.append(
                            .pieces(
                                operation: index, pieces: blocks, aligned: true, kept: all & ~(UInt64(1) << UInt64(missing)),
                                garbage: false, grown: true))
                    }
                }
            }
            let sectors = (offset + length - 1) / Tear.sectorSize - offset / Tear.sectorSize + 1
            for sector in Set([0, sectors - 1]).sorted() {
                let sectorStart = (offset / Tear.sectorSize + sector) * Tear.sectorSize
                let inside = min(sectorStart + Tear.sectorSize, offset + length) - max(sectorStart, offset)
                tears.append(.sector(operation: index, sector: sector, length: max(1, inside / 2)))
            }
            return tears
        default:
            return []
        }
    }

    /// Where the process model cuts a write of `length` bytes.
    static func cutPoints(_ length: Int) -> [Int] {
        guard length > 1 else { return [] }
        if length <= 16 { return Array(1..<length) }
        var points: Set<Int> = [1, length / 3, 2 * length / 3, length - 1]
        points.formUnion(stride(from: Tear.sectorSize, to: length, by: Tear.sectorSize))
        return points.filter { $0 > 0 && $0 < length }.sorted()
    }
}
