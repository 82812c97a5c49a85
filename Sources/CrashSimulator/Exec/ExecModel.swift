import FileSystemKit
import Foundation

/// The directory a traced program writes, in the model and on disk: where it sits in the model,
/// its loading, what it holds (to compare the rebuild with the real end state), and a crash
/// state written out for the user's checker.
enum ExecModel {
    /// The model path of the directory: `/` and its name.
    static func root(of directory: String) -> String {
        let name = lastPathComponent(directory)
        return "/" + (name.isEmpty || name == "." || name == ".." ? "dir" : name)
    }

    /// A tree holding the directory at `path` at `model`.
    static func load(_ path: String, at model: String) -> ModelTree {
        DiskLoader.load(path, at: model).tree
    }

    /// Every file (with its bytes) and directory (nil) below `model` in `tree`, by relative path.
    static func contents(of tree: ModelTree, at model: String) -> [String: [UInt8]?] {
        var found: [String: [UInt8]?] = [:]
        guard let top = ModelFileSystem(tree: tree).resolve(model) else { return found }
        var stack: [(Int32, String)] = [(top, "")]
        while let (inode, path) = stack.popLast() {
            for (name, child) in tree.entries(of: inode) {
                let relative = path.isEmpty ? tree.names.name(name) : path + "/" + tree.names.name(name)
                if tree.isDirectory(child) == true {
                    found[relative] = .some(nil)
                    stack.append((child, relative))
                } else {
                    found[relative] = .some(tree.blob(of: child)?.bytes ?? [])
                }
            }
        }
        return found
    }

    /// Every file (with its bytes) and directory (nil) below `path` on disk, by relative path
    /// (symbolic links and special files left out, as the model leaves them out).
    static func contents(ofDisk path: String) -> [String: [UInt8]?] {
        var found: [String: [UInt8]?] = [:]
        let disk = POSIXFileSystem()
        var stack = [""]
        while let relative = stack.popLast() {
            let directory = relative.isEmpty ? path : joinPath(path, relative)
            for name in (try? disk.list(directory)) ?? [] {
                let child = relative.isEmpty ? name : relative + "/" + name
                switch disk.kind(of: joinPath(path, child)) {
                case .directory:
                    found[child] = .some(nil)
                    stack.append(child)
                case .file:
                    found[child] = .some((try? disk.read(joinPath(path, child))) ?? [])
                default: continue
                }
            }
        }
        return found
    }

    /// How the model's end state differs from the disk's, one line per path (empty when equal).
    static func differences(model: [String: [UInt8]?], disk: [String: [UInt8]?]) -> [String] {
        var lines: [String] = []
        for path in Set(model.keys).union(disk.keys).sorted() {
            switch (model[path], disk[path]) {
            case (nil, _?): lines.append("\(path) is on disk but not in the rebuild")
            case (_?, nil): lines.append("\(path) is in the rebuild but not on disk")
            case (let rebuilt??, let real??) where rebuilt != real:
                lines.append("\(path) holds \(real.count) bytes on disk, \(rebuilt.count) in the rebuild")
            case (.some(.none), .some(.some)), (.some(.some), .some(.none)):
                lines.append("\(path) is a directory in one and a file in the other")
            default: continue
            }
        }
        return lines
    }

    /// Removes a directory tree, giving its directories back the write permission a program may
    /// have taken from them.
    static func removeTree(_ path: String) {
        let manager = FileManager.default
        if let walker = manager.enumerator(atPath: path) {
            for case let relative as String in walker {
                let full = joinPath(path, relative)
                if (try? manager.attributesOfItem(atPath: full)[.type] as? FileAttributeType) == .typeDirectory {
                    try? manager.setAttributes([.posixPermissions: 0o755], ofItemAtPath: full)
                }
            }
        }
        try? manager.removeItem(atPath: path)
    }

    /// Writes what `tree` holds below `model` into `directory` (made anew).
    static func write(_ tree: ModelTree, at model: String, to directory: String) throws {
        let manager = FileManager.default
        if manager.fileExists(atPath: directory) { try manager.removeItem(atPath: directory) }
        try manager.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let contents = contents(of: tree, at: model)
        for path in contents.keys.sorted() {
            let target = joinPath(directory, path)
            switch contents[path] {
            case .some(.none): try manager.createDirectory(atPath: target, withIntermediateDirectories: true)
            case .some(.some(let bytes)): try Data(bytes).write(to: URL(fileURLWithPath: target))
            case .none: continue
            }
        }
    }
}
