import SessionModel

extension TabGroup {
    /// The tab indexes the group's range covers, clipped to the `tabCount` tabs that exist.
    public func memberIndexes(tabCount: Int) -> Range<Int> {
        let first = min(max(Int(start), 0), tabCount)
        let end = min(max(Int(start) + Int(count), first), tabCount)
        return first..<end
    }
}
