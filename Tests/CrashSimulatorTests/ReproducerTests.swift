@_spi(CrashTesting) import SessionStore
import TestSupport
import Testing

@_spi(CrashTesting) @testable import CrashSimulator

/// Reproducers print and parse back exactly; bad ones are refused with a reason.
@Suite struct ReproducerTests {
    init() { Browsers.install() }

    @Test(arguments: [
        CrashState(crashPoint: 0),
        CrashState(crashPoint: 211, selection: .allBut([204, 206]), tear: .cut(operation: 208, bytes: 100)),
        CrashState(
            crashPoint: 12, selection: .only([3]),
            tear: .pieces(operation: 3, pieces: 3, aligned: false, kept: 5, garbage: true, grown: false)),
        CrashState(crashPoint: 40, selection: .none, tear: nil, recoveryCrash: 7, recoveryCut: 12),
        CrashState(crashPoint: 40, selection: .all, tear: .renameSteps(operation: 39, steps: 3), recoveryCrash: 2),
        CrashState(crashPoint: 9, tear: .sector(operation: 8, sector: 2, length: 256))
    ])
    func roundTrip(state: CrashState) throws {
        let reproducer = Reproducer(
            workload: "Fixtures/workloads/two-windows.workload", model: .pessimistic,
            writeProtocol: .noFsync, seed: 77, state: state)
        #expect(try Reproducer(text: reproducer.text) == reproducer)
    }

    @Test func operationsCountFromOne() {
        let state = CrashState(crashPoint: 211, selection: .allBut([204]), tear: .cut(operation: 208, bytes: 100))
        #expect(state.text == "crash=211;keep=-205;tear=209:cut:100")
    }

    @Test(arguments: [
        "", "workload=small", "workload=small;model=power;protocol=safe;seed=1;crash=1",
        "workload=small;model=process;protocol=safe;seed=1;crash=1;keep=-0",
        "workload=small;model=process;protocol=safe;seed=1;crash=1;tear=3:cut",
        "workload=small;model=process;protocol=safe;seed=1;crash=1;colour=blue",
        "workload=small;model=process;protocol=safe;seed=x;crash=1"
    ])
    func badTextIsRefused(text: String) {
        #expect(throws: SimulatorError.self) { try Reproducer(text: text) }
    }

    /// A browser store's reproducer is refused for its store first, then for what a store's state
    /// cannot have, then for its protocol, with the reason of the first that fails.
    @Test(arguments: [
        ("store=netscape;workload=small;model=process;protocol=x;seed=1;crash=1", "store= is not one of"),
        ("store=firefox-ios;workload=small;from=/p;model=pessimistic;protocol=safe;seed=1;crash=1", "no command= or from="),
        (
            "store=firefox-desktop;workload=small;model=process;seed=1;crash=1",
            "protocol= is missing or not one of firefox, firefox-durable"
        ),
        (
            "store=chromium-desktop;workload=small;model=process;protocol=firefox;seed=1;crash=1",
            "not one of chromium, chromium-split-writes, chromium-flush, chromium-durable"
        )
    ])
    func aStoreReproducerIsRefusedForItsFirstFault(text: String, reason: String) {
        do {
            _ = try Reproducer(text: text)
            Issue.record("\(text) was taken")
        } catch {
            guard case .invalidReproducer(_, let given) = error else {
                Issue.record("\(error)")
                return
            }
            #expect(given.contains(reason), "\(given)")
        }
    }

    @Test func aStateTheGeneratorCannotMakeIsRefusedOnReplay() throws {
        let reproducer = try Reproducer(text: "workload=small;model=process;protocol=safe;seed=1;crash=5;keep=-3")
        #expect(throws: SimulatorError.self) { try Replayer().replay(reproducer) }
    }
}
