@_spi(CrashTesting) import CrashSimulator
@_spi(CrashTesting) import SessionStore
import TestSupport
import Testing

/// `crash-test --replay` takes reproducers typed by hand: one that names a state the generator
/// cannot make is refused as invalid, never materialised (found by the hostile-input tests, where
/// a torn sector near 2^63 overflowed and trapped).
@Suite struct ReplayValidationTests {
    init() { Browsers.install() }

    /// The small workload under the in-place protocol, and the first write and first non-write of
    /// it (indexes counted from 0).
    static func operations() throws -> (recording: Recording, write: Int, other: Int) {
        let recording = try WorkloadRecorder(writeProtocol: .inPlace).record(try #require(try BuiltInWorkloads.workload("small")))
        let write = try #require(recording.operations.firstIndex { $0.kind == .write && $0.size > 0 })
        let other = try #require(recording.operations.firstIndex { $0.kind == .create })
        return (recording, write, other)
    }

    /// A reproducer whose crash comes during operation `index` (the state that tears it in progress).
    static func reproducer(tearing index: Int, _ tear: String) throws -> Reproducer {
        try Reproducer(text: "workload=small;model=process;protocol=in-place;seed=1;crash=\(index);keep=all;tear=\(index + 1):\(tear)")
    }

    static func refusal(_ reproducer: Reproducer, _ recording: Recording) -> String? {
        do {
            _ = try Replayer().replay(reproducer, recording: recording)
            return nil
        } catch {
            guard case .invalidReproducer(_, let reason) = error else { return "\(error)" }
            return reason
        }
    }

    @Test func tornSectorOutsideTheWriteIsRefused() throws {
        let (recording, write, _) = try Self.operations()
        for tear in ["sector:9223372036854775807:1", "sector:4611686018427387904:1", "sector:0:9223372036854775807"] {
            let reason = Self.refusal(try Self.reproducer(tearing: write, tear), recording)
            #expect(reason?.contains("lies outside it") == true, "\(tear): \(reason ?? "replayed")")
        }
    }

    @Test func writeTearOfAnotherOperationIsRefused() throws {
        let (recording, _, other) = try Self.operations()
        for tear in ["sector:9223372036854775807:1", "cut:3", "pieces:3:5:zero:grown"] {
            let reason = Self.refusal(try Self.reproducer(tearing: other, tear), recording)
            #expect(reason?.contains("is not a write") == true, "\(tear): \(reason ?? "replayed")")
        }
        let rename = Self.refusal(try Self.reproducer(tearing: other, "rename:3"), recording)
        #expect(rename?.contains("is not a rename") == true, "\(rename ?? "replayed")")
    }

    @Test func tornSectorInsideTheWriteReplays() throws {
        let (recording, write, _) = try Self.operations()
        let reproducer = try Self.reproducer(tearing: write, "sector:0:1")
        #expect(Self.refusal(reproducer, recording) == nil)
    }
}
