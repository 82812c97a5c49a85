import ArgumentParser

/// The usage checks of an output path named on the command line.
enum OutputName {
    /// Refuses an empty output path as a usage error (status 64): it names no file to create.
    static func check(_ path: String?, option: String) throws {
        if path?.isEmpty == true { throw ValidationError("\(option) needs a path; an empty one names nothing to write") }
    }
}
