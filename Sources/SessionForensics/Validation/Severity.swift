/// How bad a finding is: `error` loses data or crashes Chrome, `warning` is a silent adjustment,
/// `info` is anything else worth knowing.
public enum Severity: String, Sendable, Hashable, CaseIterable, Comparable {
    case error
    case warning
    case info

    /// Worst first: error, then warning, then info.
    public static func < (lhs: Severity, rhs: Severity) -> Bool { lhs.rank < rhs.rank }

    private var rank: Int {
        switch self {
        case .error: return 0
        case .warning: return 1
        case .info: return 2
        }
    }
}
