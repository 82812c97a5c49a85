import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where a file operation was called from: the return addresses of the calling frames, turned into
/// function names only when a report needs them.
public struct CallSite: Sendable, Hashable {
    /// Return addresses, innermost first, with the simulator's own frames left out.
    public let addresses: [UInt]

    public init(addresses: [UInt]) { self.addresses = addresses }

    /// No call site (not captured).
    public static let none = CallSite(addresses: [])

    /// The current call stack (a few microseconds: used while recording only).
    public static func capture(skipping skip: Int = 2, limit: Int = 12) -> CallSite {
        let frames = Thread.callStackReturnAddresses.dropFirst(skip).prefix(limit).map { $0.uintValue }
        return CallSite(addresses: Array(frames))
    }

    /// The calling functions outside the simulator, innermost first, as far as symbols are
    /// available (`?` frames are left out); empty when none resolves.
    public func functionNames(limit: Int = 3) -> [String] {
        var result: [String] = []
        for address in addresses {
            guard let name = Symbolizer.name(of: address) else { continue }
            if name.hasPrefix("CrashSimulator.") || name.contains("Foundation.") || name.hasPrefix("protocol witness") {
                continue
            }
            result.append(name)
            if result.count == limit { break }
        }
        return result
    }

    /// The calling functions joined with ` <- `, or nil when no symbol resolves.
    public var description: String? {
        let names = functionNames()
        return names.isEmpty ? nil : names.joined(separator: " <- ")
    }
}

/// Turns code addresses into demangled Swift function names through the dynamic linker.
enum Symbolizer {
    /// Layout of glibc's `Dl_info`.
    struct DynamicLinkInfo {
        var fileName: UnsafePointer<CChar>? = nil
        var fileBase: UnsafeMutableRawPointer? = nil
        var symbolName: UnsafePointer<CChar>? = nil
        var symbolAddress: UnsafeMutableRawPointer? = nil
    }

    /// The demangled name of the function holding `address` (its signature shortened), or nil.
    static func name(of address: UInt) -> String? {
        var info = DynamicLinkInfo()
        guard let pointer = UnsafeRawPointer(bitPattern: address), lookUpSymbol(pointer, &info) != 0,
            let symbol = info.symbolName
        else { return nil }
        guard let demangled = demangle(symbol, UInt(strlen(symbol)), nil, nil, 0) else { return String(cString: symbol) }
        defer { free(demangled) }
        var name = String(cString: demangled)
        if let paren = name.firstIndex(of: "(") { name = String(name[..<paren]) }
        for prefix in ["static ", "merged ", "function signature specialization <Arg[0] = Owned To Guaranteed> of "]
        where name.hasPrefix(prefix) {
            name.removeFirst(prefix.count)
        }
        return name
    }

    @_silgen_name("dladdr")
    private static func lookUpSymbol(_ address: UnsafeRawPointer, _ info: UnsafeMutablePointer<DynamicLinkInfo>) -> Int32

    @_silgen_name("swift_demangle")
    private static func demangle(
        _ mangled: UnsafePointer<CChar>, _ length: UInt, _ output: UnsafeMutablePointer<CChar>?,
        _ outputSize: UnsafeMutablePointer<UInt>?, _ flags: UInt32
    ) -> UnsafeMutablePointer<CChar>?
}
