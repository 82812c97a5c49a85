import CrashSimulator
import SessionModel
import TestSupport
import Testing

/// The workload text format, as `crash-test --workload FILE` reads it, hostile files included.
@Suite struct WorkloadParserTests {
    init() { Browsers.install() }

    @Test func repeatExpandsWithTheCounter() throws {
        let workload = try WorkloadParser.parse("launch\nrepeat 3 open t{i} https://example.org/{i} \"Page {i}\"\n", name: "w")
        #expect(workload.steps.count == 4)
        #expect(
            workload.steps[3].event == .open(tab: "t3", url: "https://example.org/3", title: "Page 3", window: "main", incognito: false))
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

    @Test func everyBuiltInWorkloadParses() throws {
        for name in BuiltInWorkloads.names {
            let workload = try #require(try BuiltInWorkloads.workload(name))
            #expect(workload.steps.first?.event == .launch)
        }
        #expect(try BuiltInWorkloads.workload("1000-tabs")?.steps.count ?? 0 > 1000)
        #expect(try BuiltInWorkloads.workload("nonsense") == nil)
    }

    @Test func eventsWordsAndOptions() throws {
        let text = """
            launch   # starts
            open t1 https://example.org/?q=a=b "A \\"quoted\\" title" window=second
            open p1 https://private.example/ incognito
            open-incognito p2 https://private.example/2 "Two"
            navigate t1 https://example.org/next
            group t1 p1 title="Read later" color=blue
            move t1 3
            pin t1
            unpin t1
            disconnect second
            wait
            wait 10
            repeat 2 close t{i}
            crash
            crash-during-restore
            shutdown
            """
        let events = try WorkloadParser.parse(text, name: "test").steps.map(\.event)
        #expect(
            events == [
                .launch,
                .open(tab: "t1", url: "https://example.org/?q=a=b", title: "A \"quoted\" title", window: "second", incognito: false),
                .open(tab: "p1", url: "https://private.example/", title: "", window: "main", incognito: true),
                .open(tab: "p2", url: "https://private.example/2", title: "Two", window: "main", incognito: true),
                .navigate(tab: "t1", url: "https://example.org/next", title: ""),
                .group(tabs: ["t1", "p1"], title: "Read later", color: TabGroupColor(rawValue: 1)),
                .move(tab: "t1", to: 3), .pin(tab: "t1", pinned: true), .pin(tab: "t1", pinned: false),
                .disconnect(window: "second"), .wait(seconds: 2.5), .wait(seconds: 10),
                .close(tab: "t1"), .close(tab: "t2"), .crash, .crashDuringRestore, .shutdown
            ])
    }

    @Test(arguments: [
        ("open t1 https://x/", 1, "a workload starts with launch"),
        ("launch\nopen t1", 2, "open takes 2 to 3 argument(s), not 1"),
        ("launch\n\nfly away", 3, "unknown event 'fly'"),
        ("launch\nopen t1 \"https://x/", 2, "unterminated quoted string"),
        ("launch\nmove t1 -2", 2, "move needs a tab name and an index"),
        ("launch\nwait soon", 2, "wait takes a number of seconds"),
        ("launch\nrepeat 0 wait", 2, "repeat needs a count (1 to 100000) and an event"),
        ("launch\ngroup t1 colour=red", 2, "unknown option 'colour='"),
        ("launch\ngroup t1 color=mauve", 2, "unknown group color 'mauve'"),
        ("launch\nfrom refused-sessions", 2, "from comes once, before the first event"),
        ("from refused-sessions\nfrom refused-sessions\nlaunch", 2, "from comes once, before the first event"),
        ("from healthy\nlaunch", 1, "from takes one of: shortened-sessions, refused-sessions, interrupted-repair")
    ])
    func errorsNameTheLine(text: String, line: Int, reason: String) {
        #expect(throws: SimulatorError.invalidWorkload(name: "w", line: line, reason: reason)) { try WorkloadParser.parse(text, name: "w") }
    }

    @Test func aWorkloadStartsFromADamagedProfileItNames() throws {
        let workload = try WorkloadParser.parse("# a comment first\nfrom shortened-sessions\nlaunch\n", name: "w")
        #expect(workload.start == .shortenedSessions)
        #expect(workload.steps.map(\.event) == [.launch])
        #expect(try WorkloadParser.parse("launch\n", name: "w").start == nil)
    }

    @Test func anEmptyWorkloadIsRefused() {
        #expect(throws: SimulatorError.invalidWorkload(name: "w", line: 0, reason: "no events")) {
            try WorkloadParser.parse("# nothing\n", name: "w")
        }
    }
}
