import Foundation

/// Text as one word of a POSIX shell command line, for the commands the tool suggests running
/// next: left as it is when it holds only characters no shell treats specially, else in single
/// quotes (a single quote inside written as `'\''`).
public enum ShellWord {
    public static func quote(_ text: String) -> String {
        let plain =
            !text.isEmpty
            && text.unicodeScalars.allSatisfy { scalar in
                ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar)
                    || "/._-+,:@".unicodeScalars.contains(scalar)
            }
        return plain ? text : "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
