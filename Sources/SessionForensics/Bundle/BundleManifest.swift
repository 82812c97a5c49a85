import Archive
import SessionFormats

/// `MANIFEST.json` of a bundle made by `compress`: the tool, the time, and every regular file's
/// path (relative to the bundled directory), size and SHA-256.
///
/// It is the archive's last member, at the top level beside the bundled directory `root`, so that
/// it is written in the same single pass as the files and never collides with a file of the tree.
public struct BundleManifest: Sendable, Equatable {
    /// One regular file of the bundle.
    public struct File: Sendable, Equatable {
        public var path: String
        public var size: Int64
        /// Lower-case hexadecimal SHA-256 of the content.
        public var sha256: String

        public init(path: String, size: Int64, sha256: String) {
            self.path = path
            self.size = size
            self.sha256 = sha256
        }
    }

    public static let schema = "sessionctl.manifest/1"
    /// The member name of the manifest in a bundle.
    public static let memberName = "MANIFEST.json"

    /// The tool and version that made the bundle, e.g. `sessionctl 0.1.0`.
    public var tool: String
    /// When the bundle was made, ISO 8601 UTC with six fractional digits.
    public var created: String
    /// The name of the bundled directory: every member but the manifest is under `root/`.
    public var root: String
    public var files: [File]

    public init(tool: String, created: String, root: String, files: [File]) {
        self.tool = tool
        self.created = created
        self.root = root
        self.files = files
    }

    /// The document: the header keys, then one file per line (compact, and small once compressed).
    public func encoded() -> [UInt8] {
        var text = "{\n"
        text += "  \"schema\": \(JSONValue.string(BundleManifest.schema).serialized(pretty: false)),\n"
        text += "  \"tool\": \(JSONValue.string(tool).serialized(pretty: false)),\n"
        text += "  \"created\": \(JSONValue.string(created).serialized(pretty: false)),\n"
        text += "  \"root\": \(JSONValue.string(root).serialized(pretty: false)),\n"
        text += "  \"files\": ["
        for (index, file) in files.enumerated() {
            let line = JSONValue.object([("path", .string(file.path)), ("size", .int(file.size)), ("sha256", .string(file.sha256))])
            text += (index == 0 ? "\n    " : ",\n    ") + line.serialized(pretty: false)
        }
        text += files.isEmpty ? "]\n}\n" : "\n  ]\n}\n"
        return Array(text.utf8)
    }

    /// What a bundle's top-level MANIFEST.json turned out to be.
    public enum Reading: Sendable, Equatable {
        /// A sessionctl manifest, which the bundle must match.
        case manifest(BundleManifest)
        /// A JSON document of some other schema: a file of the bundle like any other.
        case foreign
        /// Not a JSON document, or one of sessionctl's schema that does not decode: the bundle
        /// cannot be verified, so it is refused (a check that is skipped when the manifest is
        /// damaged would let a damaged bundle through).
        case damaged(reason: String)
    }

    /// Reads a top-level MANIFEST.json, failing closed: only a well-formed JSON document of
    /// another schema is foreign.
    public static func read(_ bytes: [UInt8]) -> Reading {
        let document: JSONValue
        do {
            document = try JSONParser.parse(bytes, file: memberName)
        } catch {
            return .damaged(reason: "it is not a JSON document (\(error.description)), so the bundle cannot be verified")
        }
        guard case .string(let schema)? = document["schema"], schema == BundleManifest.schema || schema.hasPrefix("sessionctl.manifest")
        else {
            return .foreign
        }
        guard let manifest = decode(bytes) else {
            return .damaged(reason: "a \(schema) manifest that is incomplete or malformed, so the bundle cannot be verified")
        }
        return .manifest(manifest)
    }

    /// Reads a manifest; nil when the bytes are not a sessionctl manifest (a foreign MANIFEST.json).
    public static func decode(_ bytes: [UInt8]) -> BundleManifest? {
        guard let document = try? JSONParser.parse(bytes, file: memberName),
            document["schema"] == .string(schema),
            case .string(let tool)? = document["tool"],
            case .string(let created)? = document["created"],
            case .string(let root)? = document["root"],
            case .array(let entries)? = document["files"]
        else { return nil }
        var files: [File] = []
        for entry in entries {
            guard case .string(let path)? = entry["path"], case .int(let size)? = entry["size"],
                case .string(let sha256)? = entry["sha256"]
            else { return nil }
            files.append(File(path: path, size: size, sha256: sha256))
        }
        return BundleManifest(tool: tool, created: created, root: root, files: files)
    }
}
