/// What a file system answers beyond `FileSystem` for the crash simulator's sake: the one call
/// only a deliberately flawed write protocol makes, and two questions that the simulator's model
/// answers its own way. A file system without these hooks (`FileSystem.hooks` nil) gets what the
/// defaults say: nothing known of where leftovers are, no writer known to be gone.
@_spi(CrashTesting) public protocol FileSystemHooks: FileSystem {
    /// Opens a file for writing, creating it or truncating it to zero (O_CREAT | O_TRUNC).
    ///
    /// Correct writers never call this: only the deliberately flawed `WriteProtocol.inPlace`
    /// does. A recording file system implements it as a truncate; on a file system without
    /// hooks that protocol unlinks the file and creates it anew.
    func openTruncating(_ path: String, mode: UInt32) throws(FileSystemError) -> FileHandleID
    /// The directories at or below the directory at `path` (itself included) that directly hold
    /// a name starting with one of `names` (what an interrupted write leaves, for a sweep), as
    /// `path` joined with their relative names, sorted; nothing below such a name is looked at.
    /// A hint: nil when the file system does not know it cheaply (the default: any directory may
    /// hold one), else exactly what a walk of the real directories would find for those names.
    /// A sweep may skip every directory not listed, as long as it removes only such names.
    func directories(below path: String, holdingNamesStartingWith names: NamePrefixes) -> [String]?
    /// Whether the writer of the temporary output at `path` (a file or staged directory a killed
    /// command may have left beside its output) is known to be gone, so that what it left may be
    /// removed; `process` is the process id its name carries, nil when it carries none. The
    /// default knows nothing: false. The real disk asks the process table; the crash simulator's
    /// model, where the run in progress is the only process, answers true for every temporary it
    /// did not make itself.
    func writerIsGone(temporary path: String, process: Int32?) -> Bool
}

@_spi(CrashTesting) extension FileSystemHooks {
    /// By default nothing is known: anything may be anywhere.
    public func directories(below path: String, holdingNamesStartingWith names: NamePrefixes) -> [String]? { nil }

    /// By default no writer is known to be gone.
    public func writerIsGone(temporary path: String, process: Int32?) -> Bool { false }
}

@_spi(CrashTesting) extension FileSystem {
    /// This file system's hooks, or nil when it has none.
    public var hooks: (any FileSystemHooks)? { self as? any FileSystemHooks }
}
