import Foundation
import Testing

/// What a killed compress, decompress or report left beside its output is removed when the
/// command writes that output again; what a running process is writing is left alone. An
/// empty output path is a usage error.
@Suite struct AbandonedOutputTests {
    /// The id of a process that has ended.
    private func endedProcess() throws -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/true")
        try process.run()
        process.waitUntilExit()
        return process.processIdentifier
    }

    @Test(arguments: ["compress", "report", "decompress"])
    func leftoversOfAKilledRunAreRemovedByTheNext(command: String) throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let output = command == "compress" ? "out.tar.gz" : command == "report" ? "out.html" : "out"
        let ended = try endedProcess()
        let running = ProcessInfo.processInfo.processIdentifier
        let abandonedFile = "\(dir)/.sessionctl-tmp.\(output).\(ended).3"
        let abandonedDirectory = "\(dir)/.sessionctl-tmp.\(output).\(ended).d4"
        let live = "\(dir)/.sessionctl-tmp.\(output).\(running).5"
        try Data([1, 2, 3]).write(to: URL(fileURLWithPath: abandonedFile))
        try FileManager.default.createDirectory(atPath: abandonedDirectory + "/profile", withIntermediateDirectories: true)
        try Data([1]).write(to: URL(fileURLWithPath: live))
        var arguments: [String]
        switch command {
        case "compress": arguments = ["compress", CLI.path("Fixtures/profiles/healthy"), "-o", "\(dir)/\(output)"]
        case "report": arguments = ["report", CLI.path("Fixtures/profiles/healthy"), "-o", "\(dir)/\(output)"]
        default:
            #expect(try CLI.run(["compress", CLI.path("Fixtures/profiles/healthy"), "-o", "\(dir)/in.tar.gz"]).status == 0)
            arguments = ["decompress", "\(dir)/in.tar.gz", "-o", "\(dir)/\(output)"]
        }
        let result = try CLI.run(arguments)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: abandonedFile))
        #expect(!FileManager.default.fileExists(atPath: abandonedDirectory))
        #expect(FileManager.default.fileExists(atPath: live), "a running process's temporary is left alone")
        #expect(FileManager.default.fileExists(atPath: "\(dir)/\(output)"))
    }

    /// A run killed after its output appeared, before its temporary went: the next run refuses
    /// to replace the output (73) but still removes that temporary.
    @Test(arguments: ["compress", "report", "decompress"])
    func leftoversAreRemovedEvenWhenTheOutputExists(command: String) throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let output = command == "compress" ? "out.tar.gz" : command == "report" ? "out.html" : "out"
        let abandoned = "\(dir)/.sessionctl-tmp.\(output).\(try endedProcess()).7"
        try Data([1, 2, 3]).write(to: URL(fileURLWithPath: abandoned))
        try FileManager.default.createDirectory(atPath: "\(dir)/\(output)", withIntermediateDirectories: true)
        var input = CLI.path("Fixtures/profiles/healthy")
        if command == "decompress" {
            input = "\(dir)/in.tar.gz"
            #expect(try CLI.run(["compress", CLI.path("Fixtures/profiles/healthy"), "-o", input]).status == 0)
        }
        let result = try CLI.run([command, input, "-o", "\(dir)/\(output)"])
        #expect(result.status == 73, "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: abandoned))
    }

    @Test(arguments: [
        ["report", "Fixtures/profiles/healthy", "-o"], ["compress", "Fixtures/profiles/healthy", "-o"],
        ["decompress", "x.tar.gz", "-o"], ["import", "Fixtures/profiles/healthy.json", "--out"]
    ])
    func anEmptyOutputPathIsAUsageError(arguments: [String]) throws {
        let result = try CLI.run([arguments[0], CLI.path(arguments[1]), arguments[2], ""])
        #expect(result.status == 64, "\(arguments): \(result.status) \(result.stderr)")
    }
}
