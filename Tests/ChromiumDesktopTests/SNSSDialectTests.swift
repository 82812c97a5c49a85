import TestSupport
import Testing

@testable import ChromiumDesktop
@testable import SessionFormats

/// Each product's numbering of Chromium's commands: the table every record is looked up in says
/// what the dialect's own lists say, for every id and every size.
@Suite struct SNSSDialectTests {
    init() { Browsers.install() }

    /// What `meaning(of:count:)` answers, worked out from the dialect's lists themselves.
    static func listed(_ dialect: SNSSDialect, _ id: UInt8, _ count: Int) -> SNSSDialect.Meaning {
        if let bySize = dialect.ownBySize[id], bySize.size == count { return .own(bySize.command) }
        if let command = dialect.own[id] { return .own(command) }
        return .chromium(dialect.renumbered[id] ?? id)
    }

    @Test(arguments: ["chromium", "edge", "vivaldi"])
    func theTableSaysWhatTheListsSay(name: String) throws {
        let dialect = try #require(["chromium": SNSSDialect.chromium, "edge": .edge, "vivaldi": .vivaldi][name])
        for id in UInt8.min...UInt8.max {
            for count in [0, 4, 8, 12, 16, 100] {
                #expect(dialect.meaning(of: id, count: count) == Self.listed(dialect, id, count), "\(name): id \(id), \(count) bytes")
            }
        }
    }

    /// Every product's place names its dialect, and ids are written back as the file numbers them.
    @Test func eachProductReadsAndWritesItsOwnNumbering() {
        #expect(ChromiumProduct.edge.dialect == .edge && ChromiumProduct.vivaldi.dialect == .vivaldi)
        #expect([ChromiumProduct.chrome, .chromium, .brave, .opera].allSatisfy { $0.dialect == .chromium })
        #expect(SNSSDialect.vivaldi.meaning(of: 23, count: 8) == .chromium(21) && SNSSDialect.vivaldi.fileID(21) == 23)
        #expect(SNSSDialect.edge.meaning(of: 34, count: 8) != .chromium(34) && SNSSDialect.edge.meaning(of: 34, count: 20) == .chromium(34))
    }
}
