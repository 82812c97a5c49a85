/// The text form of crash states inside reproducers, e.g. `crash=211;keep=-205,207;tear=209:cut:100`.
extension CrashState {
    /// `key=value` fields, `;`-separated (without the run's workload, model, protocol and seed).
    public var text: String {
        var fields = ["crash=\(crashPoint)", "keep=\(selection.text)"]
        if let tear { fields.append("tear=\(tear.text)") }
        if let recoveryCrash { fields.append("recovery-crash=\(recoveryCrash)" + (recoveryCut.map { ":\($0)" } ?? "")) }
        if let recoveryKeep { fields.append("recovery-keep=\(recoveryKeep.text)") }
        if let recoveryTear { fields.append("recovery-tear=\(recoveryTear.text)") }
        return fields.joined(separator: ";")
    }

    /// Parses the fields of `text` (unknown keys are the caller's).
    init(fields: [String: String]) throws(SimulatorError) {
        let whole = fields.map { "\($0)=\($1)" }.sorted().joined(separator: ";")
        guard let crashText = fields["crash"], let crash = Int(crashText), crash >= 0 else {
            throw .invalidReproducer(whole, reason: "crash=N is missing or not a number")
        }
        self.init(crashPoint: crash)
        if let keep = fields["keep"] {
            guard let selection = Selection(text: keep) else {
                throw .invalidReproducer(whole, reason: "keep=\(keep) is not all, none, -N,... or +N,...")
            }
            self.selection = selection
        }
        if let tearText = fields["tear"] {
            guard let tear = Tear(text: tearText) else { throw .invalidReproducer(whole, reason: "tear=\(tearText) is not a tear") }
            self.tear = tear
        }
        if let recovery = fields["recovery-crash"] {
            let parts = recovery.split(separator: ":")
            guard (1...2).contains(parts.count), let steps = Int(parts[0]), steps >= 0 else {
                throw .invalidReproducer(whole, reason: "recovery-crash=\(recovery) is not STEPS or STEPS:BYTES")
            }
            self.recoveryCrash = steps
            if parts.count == 2 {
                guard let cut = Int(parts[1]), cut > 0 else {
                    throw .invalidReproducer(whole, reason: "recovery-crash=\(recovery) is not STEPS or STEPS:BYTES")
                }
                self.recoveryCut = cut
            }
        }
        if let keep = fields["recovery-keep"] {
            guard recoveryCrash != nil, let selection = Selection(text: keep) else {
                throw .invalidReproducer(whole, reason: "recovery-keep=\(keep) needs recovery-crash and is all, none, -N,... or +N,...")
            }
            self.recoveryKeep = selection
        }
        if let tearText = fields["recovery-tear"] {
            guard recoveryCrash != nil, let tear = Tear(text: tearText) else {
                throw .invalidReproducer(whole, reason: "recovery-tear=\(tearText) needs recovery-crash and is a tear")
            }
            self.recoveryTear = tear
        }
    }
}

extension Selection {
    /// `all`, `none`, `-3,5` (all but), `+3,5` (only).
    public var text: String {
        switch self {
        case .all: return "all"
        case .none: return "none"
        case .allBut(let dropped): return "-" + dropped.map { String($0 + 1) }.joined(separator: ",")
        case .only(let kept): return "+" + kept.map { String($0 + 1) }.joined(separator: ",")
        }
    }

    init?(text: String) {
        switch text {
        case "all": self = .all
        case "none": self = .none
        default:
            guard let sign = text.first, sign == "-" || sign == "+" else { return nil }
            let numbers = text.dropFirst().split(separator: ",").map { Int($0) }
            guard !numbers.isEmpty, numbers.allSatisfy({ ($0 ?? 0) >= 1 }) else { return nil }
            let sorted = numbers.compactMap { $0.map { $0 - 1 } }.sorted()
            self = sign == "-" ? .allBut(sorted) : .only(sorted)
        }
    }
}

extension Tear {
    /// `209:cut:100`, `209:pieces:3:5:zero:grown`, `209:blocks:4:13:garbage:short`,
    /// `209:sector:2:256`, `212:rename:3` (operations counted from 1).
    public var text: String {
        let number = operation + 1
        switch self {
        case .cut(_, let bytes):
            return "\(number):cut:\(bytes)"
        case .pieces(_, let pieces, let aligned, let kept, let garbage, let grown):
            return
                "\(number):\(aligned ? "blocks" : "pieces"):\(pieces):\(kept):\(garbage ? "garbage" : "zero"):\(grown ? "grown" : "short")"
        case .sector(_, let sector, let length):
            return "\(number):sector:\(sector):\(length)"
        case .renameSteps(_, let steps):
            return "\(number):rename:\(steps)"
        }
    }

    init?(text: String) {
        let parts = text.split(separator: ":").map(String.init)
        guard parts.count >= 3, let number = Int(parts[0]), number >= 1 else { return nil }
        let operation = number - 1
        switch parts[1] {
        case "cut":
            guard parts.count == 3, let bytes = Int(parts[2]), bytes >= 0 else { return nil }
            self = .cut(operation: operation, bytes: bytes)
        case "pieces", "blocks":
            guard parts.count == 6, let pieces = Int(parts[2]), pieces > 0, pieces <= 64, let kept = UInt64(parts[3]),
                ["zero", "garbage"].contains(parts[4]), ["grown", "short"].contains(parts[5])
            else { return nil }
            self = .pieces(
                operation: operation, pieces: pieces, aligned: parts[1] == "blocks", kept: kept,
                garbage: parts[4] == "garbage", grown: parts[5] == "grown")
        case "sector":
            guard parts.count == 4, let sector = Int(parts[2]), sector >= 0, let length = Int(parts[3]), length > 0 else { return nil }
            self = .sector(operation: operation, sector: sector, length: length)
        case "rename":
            guard parts.count == 3, let steps = Int(parts[2]), (0...7).contains(steps) else { return nil }
            self = .renameSteps(operation: operation, steps: steps)
        default:
            return nil
        }
    }
}
