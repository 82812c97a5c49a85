import FileSystemKit
import Foundation

@testable import SessionStore

/// A fresh directory under the system's temporary directory, removed by `remove()`.
struct TemporaryDirectory {
    let path: String

    init() throws {
        var template = Array((NSTemporaryDirectory() + "sessionstore-test-XXXXXX").utf8CString)
        guard let result = mkdtemp(&template) else {
            throw FileSystemError.cannotCreate(path: "temporary directory", reason: "mkdtemp failed")
        }
        path = String(cString: result)
    }

    /// A path inside the directory.
    func at(_ relative: String) -> String { joinPath(path, relative) }

    func remove() { try? FileManager.default.removeItem(atPath: path) }

    /// Names of the entries of a directory inside it (sorted; empty when missing).
    func list(_ relative: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: at(relative))) ?? []).sorted()
    }

    func exists(_ relative: String) -> Bool { FileManager.default.fileExists(atPath: at(relative)) }

    func bytes(_ relative: String) -> [UInt8] { (try? POSIXFileSystem().read(at(relative))) ?? [] }

    /// Every file under the directory, as relative paths.
    func allFiles() -> [String] {
        guard let walker = FileManager.default.enumerator(atPath: path) else { return [] }
        var files: [String] = []
        while let name = walker.nextObject() as? String {
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: at(name), isDirectory: &isDirectory), !isDirectory.boolValue { files.append(name) }
        }
        return files.sorted()
    }
}
