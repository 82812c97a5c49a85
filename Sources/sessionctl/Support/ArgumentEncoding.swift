/// The command line as the process received it, before it is decoded as text: a path whose bytes
/// are not UTF-8 would otherwise reach the commands with its bad bytes replaced, naming a file
/// that does not exist.
enum ArgumentEncoding {
    /// The position (1 for the first argument after the program name) of the first argument that
    /// is not valid UTF-8; nil when every one is.
    static func firstInvalidArgument() -> Int? {
        for index in 1..<max(1, Int(CommandLine.argc)) {
            guard let pointer = CommandLine.unsafeArgv[index] else { continue }
            if String(validatingCString: pointer) == nil { return index }
        }
        return nil
    }

    /// The one-line error for argument `index`.
    static func message(for index: Int) -> String {
        "argument \(index) is not valid UTF-8: sessionctl takes paths in UTF-8 (rename the file, or give it a symbolic link with a UTF-8 name)"
    }
}
