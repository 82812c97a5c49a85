#if canImport(Glibc)
import Glibc
#endif
import SessionFormats
import SessionModel

/// Every byte parser of sessionctl, by name, as a function that must return (not trap) on any input.
enum FuzzTargets {
    static let all: [(name: String, run: @Sendable ([UInt8]) -> Void)] = [
        ("session-metadata", { bytes in
            if let session = try? ChromeProtoCodec.decodeSessionMetadata(bytes, id: "S", incognito: false) {
                // A decoded message must re-encode and decode to the same value.
                let again = try? ChromeProtoCodec.decodeSessionMetadata(ChromeProtoCodec.encodeSessionMetadata(session), id: "S", incognito: false)
                if again != session { fatalError("session_metadata.pb does not round-trip") }
            }
        }),
        ("tab-data", { bytes in
            if let history = try? ChromeProtoCodec.decodeTabData(bytes) {
                let again = try? ChromeProtoCodec.decodeTabData(ChromeProtoCodec.encodeTabData(history))
                if again != history { fatalError("data.pb does not round-trip") }
            }
        }),
        ("wire-salvage", { bytes in
            let metadata = ChromeProtoCodec.salvageSessionMetadata(bytes, id: "S", incognito: false)
            if metadata.validPrefix > bytes.count { fatalError("salvage prefix beyond input") }
            let tab = ChromeProtoCodec.salvageTabData(bytes)
            if tab.damage == nil && (try? ChromeProtoCodec.decodeTabData(bytes)) == nil { fatalError("scanner accepted bytes the decoder refuses") }
        }),
        ("legacy-plist", { bytes in
            if let plist = try? BinaryPlistReader.read(bytes), let value = try? plist.value() {
                // Whatever the reader builds, the writer must write and the reader read back.
                if (try? BinaryPlistReader.read(BinaryPlistWriter.encode(value))) == nil { fatalError("plist writer output unreadable") }
            }
            guard let window = try? LegacySessionCodec.decodeWindow(bytes) else { return }
            let again = try? LegacySessionCodec.decodeWindow(LegacySessionCodec.encode(window))
            if again?.tabs.count != window.tabs.count { fatalError("session.plist does not round-trip") }
        }),
        ("json-import", { bytes in
            guard let value = try? JSONParser.parse(bytes, file: "fuzz.json") else { return }
            _ = value.serialized()
            _ = try? InspectDocument.decode(value, file: "fuzz.json")
        }),
    ]
}

nonisolated(unsafe) private var selected: (@Sendable ([UInt8]) -> Void)?

@_cdecl("LLVMFuzzerInitialize")
public func fuzzerInitialize(_ argc: UnsafeMutablePointer<Int32>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>>>) -> Int32 {
    let name = getenv("SESSIONCTL_FUZZ_TARGET").map { String(cString: $0) } ?? ""
    guard let target = FuzzTargets.all.first(where: { $0.name == name }) else {
        let message = "SESSIONCTL_FUZZ_TARGET must be one of: \(FuzzTargets.all.map(\.name).joined(separator: " "))\n"
        _ = message.withCString { write(2, $0, strlen($0)) }
        exit(2)
    }
    selected = target.run
    return 0
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzerTestOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    selected?(Array(UnsafeBufferPointer(start: data, count: size)))
    return 0
}

@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<Int32>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
    _ callback: @convention(c) (UnsafePointer<UInt8>, Int) -> Int32
) -> Int32

/// The program's entry point (SwiftPM names an executable's main `<Target>_main`): hands over to libFuzzer.
@_cdecl("SessionFuzz_main")
public func sessionFuzzMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> Int32 {
    var count = argc
    var arguments = argv
    return LLVMFuzzerRunDriver(&count, &arguments) { data, size in fuzzerTestOneInput(data, size) }
}
