import BrowserRegistry

#if canImport(Glibc)
    import Glibc
#endif

nonisolated(unsafe) private var selected: (@Sendable ([UInt8]) -> Void)?

@_cdecl("LLVMFuzzerInitialize")
public func fuzzerInitialize(
    _ argc: UnsafeMutablePointer<Int32>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>>>
) -> Int32 {
    let name = getenv("SESSIONCTL_FUZZ_TARGET").map { String(cString: $0) } ?? ""
    guard let target = FuzzTargets.all.first(where: { $0.name == name }) else {
        let message = "SESSIONCTL_FUZZ_TARGET must be one of: \(FuzzTargets.all.map(\.name).joined(separator: " "))\n"
        _ = message.withCString { write(2, $0, strlen($0)) }
        exit(2)
    }
    selected = target.run
    // Every browser registered, as the command line registers them: the targets read through the shared code.
    BrowserRegistry.install()
    return 0
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzerTestOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    selected?(Array(UnsafeBufferPointer(start: data, count: size)))
    return 0
}

@_silgen_name("LLVMFuzzerRunDriver")
func llvmFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<Int32>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
    _ callback: @convention(c) (UnsafePointer<UInt8>, Int) -> Int32
) -> Int32

/// The program's entry point (SwiftPM names an executable's main `<Target>_main`): hands over to libFuzzer.
@_cdecl("SessionFuzz_main")
public func sessionFuzzMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> Int32 {
    var count = argc
    var arguments = argv
    return llvmFuzzerRunDriver(&count, &arguments) { data, size in fuzzerTestOneInput(data, size) }
}
