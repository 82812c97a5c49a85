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
///   random subsets; E: garbage over the end of the first and last 512-byte sector of each such write;
///   F: each tear of C together with losses of the other pending operations (every subset of them
///   when there are at most `combinedExhaustiveLimit`, else none of them, each of the
///   `combinedSingles` issued last before the torn one alone, and `combinedSamples` seeded
///   random subsets).
///
/// Where a set is sampled rather than explored whole, the states left out are counted
/// (`Generated.leftOut`).
public struct CrashStateGenerator: Sendable {
    public let model: PersistenceModel
    public let seed: UInt64
    /// Pending sets up to this size are explored exhaustively (2^n subsets).
    public var exhaustiveLimit = 8
    /// Random subsets drawn beyond that.
    public var samples = 48
    /// With a tear, the other pending operations' subsets are explored whole up to this many operations.
    public var combinedExhaustiveLimit = 3
    /// Beyond that, each of this many operations issued last before the torn one is lost alone...
    public var combinedSingles = 4
    /// ...and this many seeded random subsets of the others are lost.
    public var combinedSamples = 2
    /// Whether a pending rename may reach the disk in some of its three steps (C): false for a
    /// file system that journals a rename whole (ext4, XFS, btrfs), where it is lost or done.
    public var splitsRenames = true

    /// The states of one crash point, and how many states of the model's space they leave out.
    public struct Generated: Sendable {
        public var states: [CrashState]
        /// States of the model at this crash point not generated (sampled sets); a count that
        /// may exceed 2^53, so kept as a floating-point number.
        public var leftOut: Double = 0
    }

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
        generate(at: crashPoint, operations: operations, pending: pending, fresh: fresh, checkpoint: checkpoint).states
    }

    /// The states of crash point `crashPoint` with the count of those sampling left out
    /// (parameters as for `states`).
    public func generate(at crashPoint: Int, operations: [FileOperation], pending: [Int], fresh: [Int], checkpoint: Bool) -> Generated {
        var states = [CrashState(crashPoint: crashPoint)]
        var leftOut = 0.0
        switch model {
        case .process:
            if crashPoint < operations.count, case .write(_, _, let bytes, _, _) = operations[crashPoint].effect {
                for cut in Self.cutPoints(bytes.count) {
                    states.append(CrashState(crashPoint: crashPoint, tear: .cut(operation: crashPoint, bytes: cut)))
                }
            }
        case .pessimistic:
            guard checkpoint, !pending.isEmpty else { return Generated(states: states) }
            let lost = subsets(at: crashPoint, pending: pending, fresh: fresh)
            states += lost
            if pending.count > exhaustiveLimit { leftOut += Self.subsetCount(pending.count) - 1 - Double(lost.count) }
            for index in fresh {
                let tears = tears(of: index, effect: operations[index].effect)
                guard !tears.isEmpty else { continue }
                let combined = combinedLosses(at: crashPoint, torn: index, pending: pending)
                for tear in tears {
                    states.append(CrashState(crashPoint: crashPoint, selection: .all, tear: tear))
                    for selection in combined.selections {
                        states.append(CrashState(crashPoint: crashPoint, selection: selection, tear: tear))
                    }
                }
                leftOut += combined.leftOut * Double(tears.count)
            }
        }
        return Generated(states: states, leftOut: leftOut)
    }

    /// 2^count, as a floating-point number (infinite past the largest double).
    static func subsetCount(_ count: Int) -> Double { Double(sign: .plus, exponent: count, significand: 1) }

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
        var seen: Set<Selection> = [.none]
        result.append(CrashState(crashPoint: crashPoint, selection: .none))
        for index in fresh where seen.insert(.allBut([index])).inserted {
            result.append(CrashState(crashPoint: crashPoint, selection: .allBut([index])))
        }
        var generator = SeededGenerator(seed: ContentHash.combine(seed, UInt64(crashPoint)))
        for _ in 0..<samples {
            let lost = Self.randomSubset(of: pending, using: &generator, keeping: false)
            if lost.isEmpty { continue }
            let selection = Self.losing(lost, of: pending)
            if seen.insert(selection).inserted { result.append(CrashState(crashPoint: crashPoint, selection: selection)) }
        }
        return result
    }

    /// C and E: the torn forms of one pending operation.
    func tears(of index: Int, effect: Effect) -> [Tear] {
        switch effect {
        case .rename:
            return splitsRenames ? (1...6).map { Tear.renameSteps(operation: index, steps: $0) } : []
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
