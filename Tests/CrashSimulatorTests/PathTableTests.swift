import TestSupport
import Testing

@testable import CrashSimulator

/// The path table finds what was filed under a path, whatever the hashes collide on.
@Suite struct PathTableTests {
    init() { Browsers.install() }

    @Test func filesAndFindsPathsAsItGrows() {
        var table = PathTable<Int>(capacity: 4)
        let paths = (0..<5_000).map { "/p/SessionStorage/S\($0 % 7)/tab\($0)" }
        for (number, path) in paths.enumerated() { table.set(number, for: path, hash: PathTable<Int>.hash(path)) }
        #expect(table.count == paths.count)
        #expect(paths.enumerated().allSatisfy { table.value(of: $0.element, hash: PathTable<Int>.hash($0.element)) == $0.offset })
        #expect(table.value(of: "/p/missing", hash: PathTable<Int>.hash("/p/missing")) == nil)
        table.set(-1, for: paths[10], hash: PathTable<Int>.hash(paths[10]))
        #expect(table.count == paths.count && table.value(of: paths[10], hash: PathTable<Int>.hash(paths[10])) == -1)
        table.removeAll()
        #expect(table.count == 0 && table.value(of: paths[10], hash: PathTable<Int>.hash(paths[10])) == nil)
    }

    /// Paths filed under one hash (a collision) are told apart by their text.
    @Test func pathsOfOneHashAreToldApart() {
        var table = PathTable<String>(capacity: 2)
        for path in ["a", "b", "c", "d", "e"] { table.set(path.uppercased(), for: path, hash: 42) }
        #expect(["a", "b", "c", "d", "e"].map { table.value(of: $0, hash: 42) } == ["A", "B", "C", "D", "E"])
        #expect(table.value(of: "f", hash: 42) == nil && table.value(of: "a", hash: 43) == nil)
        #expect(PathTable<Int>.hash("") != 0)
    }
}
