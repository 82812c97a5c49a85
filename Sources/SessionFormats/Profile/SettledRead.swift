import FileSystemKit

/// Reads a profile on disk so that what a sessionctl command changes in it (a repair swapping a
/// window in, a restore, a migration) is seen before or after the change, never half-done.
///
/// Every command that changes a profile holds its exclusive lock (`lockDirectory`) from before
/// its first change to after its last. A read waits while the lock is held, reads, and is
/// taken only when the lock was free and the directories holding the windows (the profile,
/// `[OTR/]SessionStorage`, `[OTR/]Sessions`) are unchanged after it; otherwise it reads
/// again. A lock held past `patience` ends the read with `FileSystemError.locked` (status 75):
/// a writer is said to be at work rather than an empty profile shown.
public struct SettledRead: Sendable {
    /// The profile directory the read belongs to.
    public let profile: String
    /// How long a read waits, in all, for writers to finish.
    public var patience: Double = 10
    private let fileSystem = POSIXFileSystem()

    public init(profile: String, patience: Double = 10) {
        self.profile = profile
        self.patience = patience
    }

    /// The settled read of what `path` (as given on the command line) belongs to: nil when it is
    /// not on disk or no profile directory holds it (a bundle, a loose file), for which there is
    /// no writer to wait for.
    public static func of(_ path: String) -> SettledRead? {
        let fileSystem = POSIXFileSystem()
        guard let kind = fileSystem.resolvedKind(of: path) else { return nil }
        var directory = kind == .directory ? InputOpener.absolutePath(path) : parentPath(InputOpener.absolutePath(path))
        let markers = [ProfileLayout.optimizedDirectory, ProfileLayout.legacyDirectory, ProfileLayout.incognitoDirectory]
        for _ in 0..<4 {
            let isProfile = markers.contains { fileSystem.resolvedKind(of: joinPath(directory, $0)) == .directory }
            if isProfile && lastPathComponent(directory) != ProfileLayout.incognitoDirectory { return SettledRead(profile: directory) }
            guard directory != "/" else { break }
            directory = parentPath(directory)
        }
        return nil
    }

    /// Runs `body`, which reads what `path` names, as a settled read when `path` belongs to a
    /// profile on disk (`of`), else as it is.
    public static func reading<T>(_ path: String, _ body: () throws -> T) throws -> T {
        guard let settled = of(path) else { return try body() }
        return try settled.run(body)
    }

    /// The directories whose entries say which windows the profile has.
    private var watched: [String] {
        var paths = [profile]
        for base in [profile, joinPath(profile, ProfileLayout.incognitoDirectory)] {
            for storage in [ProfileLayout.optimizedDirectory, ProfileLayout.legacyDirectory] {
                paths.append(joinPath(base, storage))
            }
        }
        return paths
    }

    /// Runs `body` until it ran while no writer held the profile and nothing it watches changed.
    public func run<T>(_ body: () throws -> T) throws -> T {
        let step: UInt32 = 20_000
        var waited = 0.0
        while true {
            while fileSystem.isLockedExclusively(profile) {
                guard waited < patience else { throw FileSystemError.locked(path: profile) }
                SystemCall.pause(microseconds: step)
                waited += Double(step) / 1_000_000
            }
            let before = fileSystem.directoryStamp(watched)
            let result = try body()
            if !fileSystem.isLockedExclusively(profile) && fileSystem.directoryStamp(watched) == before { return result }
            guard waited < patience else { throw FileSystemError.locked(path: profile) }
            SystemCall.pause(microseconds: step)
            waited += Double(step) / 1_000_000
        }
    }
}
