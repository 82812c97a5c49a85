/// The rules that keep archive members inside the directory they are extracted to.
public enum ArchivePath {
    /// The components of a member path, made relative (`.` and empty components dropped).
    ///
    /// Returns the reason for refusal instead when the path is absolute or climbs with `..`.
    /// An empty result is the archive's root itself (`./`).
    public static func components(of path: String) -> Result<[String], Refusal> {
        if path.hasPrefix("/") { return .failure(Refusal("absolute path")) }
        var parts: [String] = []
        for part in path.split(separator: "/", omittingEmptySubsequences: true) {
            if part == "." { continue }
            if part == ".." { return .failure(Refusal("path climbs out with '..'")) }
            parts.append(String(part))
        }
        return .success(parts)
    }

    /// Checks a symbolic link's target: relative, `..` only at its start, and never above the root
    /// from the link's directory (`linkDirectory`, the components of the directory holding the link).
    ///
    /// With no `..` after a plain component, each step of the target either climbs within the
    /// link's own (real) directories or descends, so the link resolves inside the tree even when
    /// other links inside the tree are followed on the way.
    public static func checkLinkTarget(_ target: String, linkDirectory: [String]) -> Refusal? {
        if target.isEmpty { return Refusal("empty link target") }
        if target.hasPrefix("/") { return Refusal("link points to an absolute path") }
        var climbs = 0
        var descended = false
        for part in target.split(separator: "/", omittingEmptySubsequences: true) {
            if part == "." { continue }
            if part == ".." {
                if descended { return Refusal("link target has '..' after a directory name") }
                climbs += 1
            } else {
                descended = true
            }
        }
        if climbs > linkDirectory.count { return Refusal("link points outside the output directory") }
        return nil
    }

    /// Why a member was refused.
    public struct Refusal: Error, Sendable, Equatable, CustomStringConvertible {
        public let description: String
        public init(_ description: String) { self.description = description }
    }
}
