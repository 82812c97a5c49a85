import Dispatch

/// Maps an array on every core, with the results in the order of the input (so that what is
/// computed in parallel reads exactly as if computed one element after another).
public enum OrderedParallelMap {
    /// `elements.map(transform)`, with `transform` run concurrently; it must not depend on shared mutable state.
    /// With `concurrently` false it is a plain `map` (for a file system that must be read from one thread).
    public static func map<Element: Sendable, Mapped: Sendable>(
        _ elements: [Element], concurrently: Bool = true,
        _ transform: @Sendable (Element) -> Mapped
    ) -> [Mapped] {
        let count = elements.count
        guard count > 1, concurrently else { return elements.map(transform) }
        return [Mapped](unsafeUninitializedCapacity: count) { buffer, initialized in
            guard let base = buffer.baseAddress else { return }
            // Each index is written by exactly one iteration, and the array is read only after all of them.
            nonisolated(unsafe) let results = base
            DispatchQueue.concurrentPerform(iterations: count) { index in
                (results + index).initialize(to: transform(elements[index]))
            }
            initialized = count
        }
    }
}
