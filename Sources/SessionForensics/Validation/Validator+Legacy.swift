import SessionFormats
import SessionModel

/// Validation of legacy sessions (`Sessions/<id>/session.plist`).
extension Validator {
    /// The magic of a binary property list.
    static let binaryPlistMagic = Array("bplist00".utf8)

    /// Checks one legacy session file: it must be readable and a binary property list.
    func validateLegacy(_ source: SessionSource, in input: LocatedInput) -> SessionResult {
        let scope = FindingScope(session: source.id, incognito: source.incognito, file: source.path)
        let bytes: [UInt8]
        do {
            bytes = try input.tree.read(source.path)
        } catch {
            return SessionResult(findings: [scope.finding(.legacyUnparsable, "session.plist cannot be read (\(error.description)); Chrome loads the window empty")])
        }
        let magic = Validator.binaryPlistMagic
        let bad = magic.indices.first { $0 >= bytes.count || bytes[$0] != magic[$0] }
        if let bad {
            return SessionResult(findings: [scope.finding(.legacyUnparsable, offset: bad,
                                                          "session.plist does not start with the binary property list magic \"bplist00\"; Chrome loads the window empty")])
        }
        return SessionResult()
    }
}
