import Foundation
import SessionModel

extension InspectDocument {
    /// Reads the sessions described by an inspect document (with `--history` content for the histories).
    ///
    /// Every error names the JSON path of the offending value, e.g. `sessions[0].tabs[2].id`.
    public static func decode(_ document: JSONValue, file: String) throws(FormatError) -> [Session] {
        let reader = JSONReader(file: file)
        let root = try reader.object(document, at: "")
        let schemaValue = try reader.string(root["schema"], at: "schema")
        guard schemaValue == schema else {
            throw .invalidDocument(path: file, reason: "schema is \"\(schemaValue)\", expected \"\(schema)\"")
        }
        let sessions = try reader.array(root["sessions"], at: "sessions")
        var result: [Session] = []
        for (index, value) in sessions.enumerated() {
            result.append(try decodeSession(value, at: "sessions[\(index)]", reader))
        }
        return result
    }

    static func decodeSession(_ value: JSONValue, at path: String, _ reader: JSONReader) throws(FormatError) -> Session {
        let object = try reader.object(value, at: path)
        let id = try reader.string(object["id"], at: path + ".id")
        guard !id.isEmpty, !id.contains("/"), id != ".", id != ".." else {
            throw .invalidDocument(path: reader.file, reason: "\(path).id: \"\(id)\" cannot name a session directory")
        }
        let formatName = try reader.optionalString(object["format"], at: path + ".format") ?? "optimized"
        let format = SessionFormat(rawValue: formatName)
        guard BrowserFamilies.formats.contains(format) else {
            throw .invalidDocument(path: reader.file, reason: "\(path).format: unknown format \"\(formatName)\"")
        }
        var tabs: [Tab] = []
        for (index, tab) in try reader.array(object["tabs"], at: path + ".tabs").enumerated() {
            tabs.append(try decodeTab(tab, at: "\(path).tabs[\(index)]", reader))
        }
        var groups: [TabGroup] = []
        for (index, group) in try reader.array(object["groups"] ?? .array([]), at: path + ".groups").enumerated() {
            groups.append(try decodeGroup(group, at: "\(path).groups[\(index)]", reader))
        }
        return Session(
            id: id, incognito: try reader.bool(object["incognito"] ?? .bool(false), at: path + ".incognito"),
            format: format, activeIndex: try reader.int32(object["activeIndex"] ?? .int(-1), at: path + ".activeIndex"),
            pinnedCount: try reader.int32(object["pinnedCount"] ?? .int(0), at: path + ".pinnedCount"),
            tabs: tabs, groups: groups
        )
    }

    static func decodeTab(_ value: JSONValue, at path: String, _ reader: JSONReader) throws(FormatError) -> Tab {
        let object = try reader.object(value, at: path)
        var opener: Opener?
        if let openerValue = object["opener"], openerValue != .null {
            let openerObject = try reader.object(openerValue, at: path + ".opener")
            opener = Opener(
                index: try reader.int32(openerObject["index"], at: path + ".opener.index"),
                navigationIndex: try reader.int32(openerObject["navigationIndex"] ?? .int(0), at: path + ".opener.navigationIndex"))
        }
        var history: TabHistory?
        if let historyValue = object["history"], historyValue != .null {
            let historyObject = try reader.object(historyValue, at: path + ".history")
            var items: [NavigationItem] = []
            for (index, item) in try reader.array(historyObject["items"], at: path + ".history.items").enumerated() {
                items.append(try decodeItem(item, at: "\(path).history.items[\(index)]", reader))
            }
            var certificates: [CertificateRecord] = []
            for (index, cert) in try reader.array(object["certificates"] ?? .array([]), at: path + ".certificates").enumerated() {
                let certPath = "\(path).certificates[\(index)]"
                let certObject = try reader.object(cert, at: certPath)
                let status = try reader.int64(certObject["status"] ?? .int(0), at: certPath + ".status")
                guard let status32 = UInt32(exactly: status) else {
                    throw .invalidDocument(path: reader.file, reason: "\(certPath).status: out of range")
                }
                certificates.append(
                    CertificateRecord(
                        certificate: try reader.base64(certObject["certificate"] ?? .string(""), at: certPath + ".certificate"),
                        host: try reader.optionalString(certObject["host"], at: certPath + ".host") ?? "", status: status32))
            }
            history = TabHistory(
                hasOpener: try reader.bool(object["hasOpener"] ?? .bool(false), at: path + ".hasOpener"),
                userAgent: try reader.enumeration(object["userAgent"] ?? .string("automatic"), at: path + ".userAgent"),
                lastCommittedIndex: try reader.int32(
                    historyObject["lastCommittedIndex"] ?? .int(-1), at: path + ".history.lastCommittedIndex"),
                items: items, certificates: certificates
            )
        }
        return Tab(
            id: try reader.int32(object["id"], at: path + ".id"),
            title: try reader.optionalString(object["title"], at: path + ".title") ?? "",
            url: try reader.optionalString(object["url"], at: path + ".url") ?? "",
            creationTime: try reader.time(object["creationTime"], at: path + ".creationTime"),
            lastActiveTime: try reader.time(object["lastActiveTime"], at: path + ".lastActiveTime"),
            navigationItemCount: try reader.int32(
                object["navigationItemCount"] ?? .int(Int64(history?.items.count ?? 0)), at: path + ".navigationItemCount"),
            opener: opener, pinned: try reader.bool(object["pinned"] ?? .bool(false), at: path + ".pinned"), history: history,
            stableIdentifier: try reader.optionalString(object["stableIdentifier"], at: path + ".stableIdentifier"),
            incognito: try reader.bool(object["incognito"] ?? .bool(false), at: path + ".incognito")
        )
    }

    static func decodeItem(_ value: JSONValue, at path: String, _ reader: JSONReader) throws(FormatError) -> NavigationItem {
        let object = try reader.object(value, at: path)
        var referrer: Referrer?
        if let referrerValue = object["referrer"], referrerValue != .null {
            let referrerObject = try reader.object(referrerValue, at: path + ".referrer")
            referrer = Referrer(
                url: try reader.optionalString(referrerObject["url"], at: path + ".referrer.url") ?? "",
                policy: try reader.enumeration(referrerObject["policy"] ?? .string("always"), at: path + ".referrer.policy"))
        }
        var headers: [HTTPHeader] = []
        for (index, header) in try reader.array(object["headers"] ?? .array([]), at: path + ".headers").enumerated() {
            let headerObject = try reader.object(header, at: "\(path).headers[\(index)]")
            headers.append(
                HTTPHeader(
                    name: try reader.string(headerObject["name"], at: "\(path).headers[\(index)].name"),
                    value: try reader.optionalString(headerObject["value"], at: "\(path).headers[\(index)].value") ?? ""))
        }
        return NavigationItem(
            url: try reader.optionalString(object["url"], at: path + ".url") ?? "",
            virtualURL: try reader.optionalString(object["virtualURL"], at: path + ".virtualURL") ?? "",
            title: try reader.optionalString(object["title"], at: path + ".title") ?? "",
            timestamp: try reader.time(object["timestamp"], at: path + ".timestamp"),
            userAgent: try reader.enumeration(object["userAgent"] ?? .string("none"), at: path + ".userAgent"),
            referrer: referrer, headers: headers,
            securityScopedFileResource: try reader.base64(
                object["securityScopedFileResource"] ?? .string(""), at: path + ".securityScopedFileResource")
        )
    }

    static func decodeGroup(_ value: JSONValue, at path: String, _ reader: JSONReader) throws(FormatError) -> TabGroup {
        let object = try reader.object(value, at: path)
        var id: TabGroupID?
        if let hex = try reader.optionalString(object["id"], at: path + ".id") {
            guard let parsed = TabGroupID(hex: hex) else {
                throw .invalidDocument(path: reader.file, reason: "\(path).id: \"\(hex)\" is not 32 hex digits")
            }
            id = parsed
        }
        return TabGroup(
            start: try reader.int32(object["start"], at: path + ".start"),
            count: try reader.int32(object["count"], at: path + ".count"),
            title: try reader.optionalString(object["title"], at: path + ".title") ?? "",
            color: try reader.enumeration(object["color"] ?? .string("grey"), at: path + ".color"),
            collapsed: try reader.bool(object["collapsed"] ?? .bool(false), at: path + ".collapsed"), id: id
        )
    }
}

/// Typed access to JSON values with errors that name the document and the JSON path.
struct JSONReader {
    let file: String

    func fail(_ path: String, _ reason: String) -> FormatError {
        .invalidDocument(path: file, reason: path.isEmpty ? reason : "\(path): \(reason)")
    }

    func object(_ value: JSONValue?, at path: String) throws(FormatError) -> JSONValue {
        guard let value, case .object = value else { throw fail(path, value == nil ? "missing" : "expected an object") }
        return value
    }

    func array(_ value: JSONValue?, at path: String) throws(FormatError) -> [JSONValue] {
        guard case .array(let values)? = value else { throw fail(path, value == nil ? "missing" : "expected an array") }
        return values
    }

    func string(_ value: JSONValue?, at path: String) throws(FormatError) -> String {
        guard case .string(let text)? = value else { throw fail(path, value == nil ? "missing" : "expected a string") }
        return text
    }

    func optionalString(_ value: JSONValue?, at path: String) throws(FormatError) -> String? {
        switch value {
        case nil, .null?: return nil
        case .string(let text)?: return text
        default: throw fail(path, "expected a string or null")
        }
    }

    func bool(_ value: JSONValue?, at path: String) throws(FormatError) -> Bool {
        guard case .bool(let flag)? = value else { throw fail(path, value == nil ? "missing" : "expected true or false") }
        return flag
    }

    func int64(_ value: JSONValue?, at path: String) throws(FormatError) -> Int64 {
        guard case .int(let number)? = value else { throw fail(path, value == nil ? "missing" : "expected an integer") }
        return number
    }

    func int32(_ value: JSONValue?, at path: String) throws(FormatError) -> Int32 {
        let number = try int64(value, at: path)
        guard let result = Int32(exactly: number) else { throw fail(path, "\(number) does not fit in 32 bits") }
        return result
    }

    func time(_ value: JSONValue?, at path: String) throws(FormatError) -> Timestamp {
        guard let text = try optionalString(value, at: path) else { return .null }
        guard let time = Timestamp(iso8601: text) else { throw fail(path, "\"\(text)\" is not an ISO 8601 UTC time") }
        return time
    }

    func enumeration<E: ChromeEnum>(_ value: JSONValue?, at path: String) throws(FormatError) -> E {
        switch value {
        case .string(let name)?:
            guard let result = E(name: name) else { throw fail(path, "unknown value \"\(name)\"") }
            return result
        case .int(let number)?:
            guard let raw = Int32(exactly: number) else { throw fail(path, "\(number) does not fit in 32 bits") }
            return E(rawValue: raw)
        default:
            throw fail(path, "expected a name or a number")
        }
    }

    func base64(_ value: JSONValue?, at path: String) throws(FormatError) -> [UInt8] {
        let text = try optionalString(value, at: path) ?? ""
        guard let data = Data(base64Encoded: text) else { throw fail(path, "not base64") }
        return [UInt8](data)
    }
}
