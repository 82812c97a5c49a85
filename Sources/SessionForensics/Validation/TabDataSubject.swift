import SessionModel

/// A tab's data.pb as decoded, with where its parts lie and the list entry that refers to it.
struct TabDataSubject: Sendable {
    let history: TabHistory
    let layout: TabDataLayout
    /// Findings are reported against the data.pb file.
    let scope: FindingScope
    let tab: TabReference
    /// The tab's entry in session_metadata.pb, when the input has one (not for a lone data.pb).
    let listed: Tab?
}
