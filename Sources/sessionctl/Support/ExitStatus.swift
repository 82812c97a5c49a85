import Archive
import ArgumentParser
import CrashSimulator
import FileSystemKit
import SessionForensics
import SessionFormats
import SessionStore

/// The exit statuses of the command-line contract, and the one mapping from errors to them.
enum ExitStatus {
    static let success: Int32 = 0
    /// validate found errors, diff found differences, crash-test found failures, repair left something.
    static let findings: Int32 = 1
    static let usage: Int32 = 64
    static let dataError: Int32 = 65
    static let noInput: Int32 = 66
    static let software: Int32 = 70
    static let cannotCreate: Int32 = 73
    static let ioError: Int32 = 74
    static let tempFail: Int32 = 75
    /// A tool the command needs is not installed (crash-test --exec without strace).
    static let unavailable: Int32 = 69
    /// crash-test stopped before exploring every state (--max-states) and found no failing state.
    static let incomplete: Int32 = 3

    /// The status for an error thrown by a command.
    static func of(_ error: any Error) -> Int32 {
        switch error {
        case let error as FormatError:
            switch error {
            case .damaged, .notASession, .invalidDocument: return dataError
            case .unreadable: return noInput
            }
        case let error as FileSystemError:
            switch error {
            case .io: return ioError
            case .exists, .cannotCreate: return cannotCreate
            case .locked: return tempFail
            case .notRegularFile, .tooLarge: return dataError
            }
        case let error as ForensicsError:
            switch error {
            case .notAProfile, .cannotMigrate, .unsafeToMove, .entryDamaged, .notSupported, .cannotRepair: return dataError
            case .sessionNotFound, .entryNotFound: return noInput
            case .invalidName, .notWholeProfile: return usage
            case .liveSessionInTheWay: return cannotCreate
            case .browserRunning: return tempFail
            }
        case let error as ArchiveError:
            switch error {
            case .damaged, .notAnArchive, .unsafeEntry, .tooLarge, .manifestMismatch: return dataError
            case .unreadable: return noInput
            case .zlib: return software
            }
        case let error as SimulatorError:
            switch error {
            case .invalidReproducer, .invalidOption: return usage
            case .invalidWorkload: return dataError
            case .unreadableWorkload: return noInput
            case .storeFailed, .childFailed, .execFailed, .recordingMismatch: return software
            case .unmodelled: return dataError
            case .recorderMissing: return unavailable
            }
        case let error as CommandFailure:
            return error.status
        default:
            // ArgumentParser's own errors: help and version are 0, usage errors are 64.
            return SessionCtl.exitCode(for: error).rawValue
        }
    }

    /// The one-line message for an error, or nil when ArgumentParser prints it (help, usage).
    static func message(for error: any Error) -> String? {
        switch error {
        case let error as FormatError: return error.description
        case let error as FileSystemError: return error.description
        case let error as ForensicsError: return error.description
        case let error as ArchiveError: return error.description
        case let error as SimulatorError: return "crash-test: \(error.description)"
        case let error as CommandFailure: return error.message
        default: return nil
        }
    }
}

/// A failure a command reports with its own status and message.
struct CommandFailure: Error {
    var status: Int32
    var message: String?

    static func usage(_ message: String) -> CommandFailure { CommandFailure(status: ExitStatus.usage, message: message) }
    /// Ends the command with a status and nothing more to say (the output already said it).
    static func exit(_ status: Int32) -> CommandFailure { CommandFailure(status: status, message: nil) }

    /// Runs `body`; an output that already exists is reported with `hint`, what to do about it.
    static func explainingExisting<T>(_ hint: String, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch FileSystemError.exists(let path) {
            throw CommandFailure(status: ExitStatus.cannotCreate, message: "\(path): already exists; \(hint)")
        }
    }
}
