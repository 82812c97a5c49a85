import CrashSimulator
import Testing

/// Workload files as `crash-test --workload FILE` reads them, hostile ones included.
@Suite struct WorkloadParserTests {
    @Test func repeatExpandsWithTheCounter() throws {
        let workload = try WorkloadParser.parse("launch\nrepeat 3 open t{i} https://example.org/{i} \"Page {i}\"\n", name: "w")
        #expect(workload.steps.count == 4)
        #expect(workload.steps[3].event == .open(tab: "t3", url: "https://example.org/3", title: "Page 3", window: "main", incognito: false))
    }

    /// Many `repeat 100000` lines (a few bytes each) expanded without bound: a 64 KiB file asked for
    /// hundreds of millions of events and exhausted memory.
    @Test func repeatedLinesStopAtTheEventLimit() throws {
        let text = "launch\n" + String(repeating: "repeat 400 crash\n", count: 10)
        #expect(throws: SimulatorError.invalidWorkload(name: "w", line: 4, reason: "the workload expands to more than 1000 events")) {
            try WorkloadParser.parse(text, name: "w", maxEvents: 1000)
        }
        #expect(try WorkloadParser.parse(text, name: "w", maxEvents: 4001).steps.count == 4001)
        #expect(WorkloadParser.maxEvents == 1_000_000)
    }
}
