@_spi(CrashTesting) import CrashSimulator
import FileSystemKit
import FirefoxIOS
import SessionFormats
import SessionModel

/// What Firefox for iOS loads for one window at launch (`DefaultTabDataStore.fetchWindowData`):
/// its window file when that exists and decodes, else its backup when that does, else nothing.
struct FirefoxWindowLoad: Sendable {
    /// Where the window came from.
    enum Source: String, Sendable {
        case file = "its file"
        case backup = "its backup"
    }

    /// The file Firefox took the window from; nil when the window is lost.
    var source: Source?
    /// The bytes of that file.
    var bytes: [UInt8] = []
    /// The window as Firefox decodes it (nil when lost, or when the caller knew it decodes).
    var window: FirefoxWindowData?

    /// Loads window `id` from the profile `paths` names. `decodes` answers, when it can, whether
    /// Firefox decodes some bytes (a judge that knows what each save wrote need not decode it
    /// again); the window itself is then not decoded.
    static func load(
        _ id: String, from fileSystem: any ReadableFileSystem, paths: FirefoxIOSStorePaths, decodes: ([UInt8]) -> Bool? = { _ in nil }
    ) -> FirefoxWindowLoad {
        for (path, source) in [(paths.windowPath(id), Source.file), (paths.backupPath(id), .backup)] {
            guard fileSystem.kind(of: path) == .file, let bytes = try? fileSystem.read(path, limit: Int.max) else { continue }
            if let known = decodes(bytes) {
                if known { return FirefoxWindowLoad(source: source, bytes: bytes) }
                continue
            }
            let file = FirefoxWindowDecoder.decode(bytes)
            if file.loadsInFirefox, let window = file.window { return FirefoxWindowLoad(source: source, bytes: bytes, window: window) }
        }
        return FirefoxWindowLoad()
    }
}
