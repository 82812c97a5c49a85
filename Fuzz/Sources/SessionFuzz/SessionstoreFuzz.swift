import Archive
import FirefoxDesktop
import SessionFormats

/// Firefox desktop's session files: whatever the bytes (plain JSON, or mozLz4 around them),
/// decoding never traps, a tab the damage cut is counted among the tabs kept, and the merge repair
/// writes of what was read loads in Firefox and holds every tab read.
enum SessionstoreFuzz {
    @Sendable static func run(_ bytes: [UInt8]) {
        // The one-pass reading takes only what the parser takes whole, and reads it the same.
        if let fast = SessionstoreDecoder.scanned(bytes) {
            let slow = SessionstoreDecoder.salvaged(bytes)
            if slow.damage != nil || slow.document != fast { fatalError("the scanner and the parser read the document otherwise") }
        }
        let plain = SessionstoreFile.decode(bytes, file: "f", compressed: false)
        check(plain)
        if let wrapped = try? MozLz4.encode(bytes, file: "f") {
            let compressed = SessionstoreFile.decode(wrapped, file: "f", compressed: true)
            if compressed.decoded != plain.decoded { fatalError("mozLz4 around the JSON reads otherwise than the JSON") }
        }
    }

    static func check(_ file: SessionstoreFile) {
        guard let document = file.document else { return }
        let tabs =
            document.tabCount + document.closedWindows.reduce(0) { $0 + $1.tabs.count }
            + (document.windows + document.closedWindows).reduce(0) { $0 + $1.closedTabs.count }
        if file.decoded.cutTabs > tabs { fatalError("more cut tabs than tabs") }
        guard let merge = SessionstoreMerge([document]) else { fatalError("no merge of one document") }
        let again = SessionstoreFile.decode(merge.json, file: "f", compressed: false)
        guard again.loadsInFirefox, let written = again.document else {
            fatalError("the merged session does not load: \(again.whyNotLoaded ?? "")")
        }
        if Set(written.windows.flatMap { $0.tabs.map(\.identity) }) != Set(document.windows.flatMap { $0.tabs.map(\.identity) }) {
            fatalError("the merged session lost or gained a tab")
        }
    }
}
