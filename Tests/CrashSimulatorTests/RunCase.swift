@_spi(CrashTesting) import CrashSimulator
@_spi(CrashTesting) import SessionStore

/// A workload explored under one persistence model and write protocol: an argument of the tests
/// that compare whole explorations.
struct RunCase: Sendable, CustomStringConvertible {
    var workload: String
    var model: PersistenceModel
    var writeProtocol: WriteProtocol
    var description: String { "\(workload)/\(model.rawValue)/\(writeProtocol.rawValue)" }
}

extension RunCase {
    /// Records and explores the case with the default options.
    func run() throws -> CrashTest.Report {
        var configuration = CrashTest.Configuration()
        configuration.workload = workload
        configuration.model = model
        configuration.writeProtocol = writeProtocol
        return try CrashTest(configuration: configuration).run()
    }
}
