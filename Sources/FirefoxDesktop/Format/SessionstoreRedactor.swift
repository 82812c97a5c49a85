import Archive
import FileSystemKit
import SessionFormats
import SessionModel

/// Redacts a Firefox desktop session document for sharing in a ticket: every URL and title as
/// `Redactor` redacts them in the other browsers' sessions, and the parts that hold what a user
/// typed or a site stored removed whole (form data, cookies, session storage, history state,
/// serialized principals and referrers, which embed URLs). Windows, tabs, entries, their order,
/// counts and times are kept.
public enum SessionstoreRedactor {
    /// Keys removed wherever they are.
    public static let removedKeys: Set<String> = [
        "formdata", "cookies", "storage", "structuredCloneState", "referrerInfo", "csp", "triggeringPrincipal_base64",
        "principalToInherit_base64", "partitionedPrincipalToInherit_base64", "searchQuery", "userTypedValue"
    ]
    /// Keys whose string values are URLs.
    public static let urlKeys: Set<String> = ["url", "originalURI", "resultPrincipalURI", "referrer", "image", "iconURL"]
    /// Keys whose string values are titles or names a user gave.
    public static let titleKeys: Set<String> = ["title", "name"]

    /// The document with every URL and title redacted and the removed keys gone. A value nested
    /// deeper than the parser builds trees (`.verbatim`) becomes `null`: what it holds is not
    /// looked at string by string, so none of it is shared.
    public static func redact(_ value: JSONValue) -> JSONValue {
        switch value {
        case .verbatim: return .null
        case .array(let elements): return .array(elements.map(redact))
        case .object(let members):
            return .object(
                members.compactMap { key, member in
                    if removedKeys.contains(key) { return nil }
                    if case .string(let text) = member {
                        if urlKeys.contains(key) { return (key, .string(Redactor.redact(url: text))) }
                        if titleKeys.contains(key) { return (key, .string(Redactor.redact(title: text))) }
                    }
                    return (key, redact(member))
                })
        default: return value
        }
    }
}
