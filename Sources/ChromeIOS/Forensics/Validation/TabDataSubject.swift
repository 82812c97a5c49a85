import SessionForensics
import SessionModel

/// A tab's entry in session_metadata.pb: what it says, where it lies, and the scope of that file.
struct ListEntry: Sendable {
    let tab: Tab
    /// Offsets of the entry's fields, when the list's bytes are at hand.
    let offsets: ListLayout.Item?
    /// Findings about the entry are reported against session_metadata.pb.
    let scope: FindingScope
}

/// A tab's data.pb as decoded, with where its parts lie and the list entry that refers to it.
struct TabDataSubject: Sendable {
    let history: TabHistory
    let layout: TabDataLayout
    /// Findings are reported against the data.pb file.
    let scope: FindingScope
    let tab: TabReference
    /// The tab's entry in session_metadata.pb, when the input has one (not for a lone data.pb).
    let entry: ListEntry?
}
