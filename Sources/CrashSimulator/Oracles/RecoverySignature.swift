/// The shape of a recovery, by which the judge decides whose crashes to explore (see
/// `StateJudge`): the set of its steps' kinds on the shapes of their paths (`PathShape`).
enum RecoverySignature {
    /// The term of one step: its kind on the shapes of its path and destination.
    static func term(_ kind: FileOperation.Kind, path: UInt64, destination: UInt64) -> UInt64 {
        ContentHash.combine(ContentHash.combine(ContentHash.of(kind.rawValue), path), destination)
    }

    /// The term of a recorded step.
    static func term(_ step: FileOperation) -> UInt64 {
        term(step.kind, path: PathShape.of(step.path), destination: PathShape.of(step.destination ?? ""))
    }

    private static let noDestination = PathShape.of("")

    /// The distinct terms of the steps something made at once stands for, and how many steps.
    struct Collapsed {
        private(set) var terms: [UInt64] = []
        private(set) var steps = 0
        private var seen: Set<UInt64> = []

        /// Counts a step, keeping its term when it is new.
        mutating func add(_ term: UInt64) {
            steps += 1
            if seen.insert(term).inserted { terms.append(term) }
        }
    }

    /// The terms of the steps a tree removed at once stands for besides its own rmdir (see
    /// `ModelFileSystem.removeTree`): an unlink of each file and an rmdir of each directory below
    /// `inode`, whose path is `path`, taken from the tree before it goes.
    static func removalTerms(_ tree: ModelTree, path: String, inode: Int32) -> Collapsed {
        var collapsed = Collapsed()
        func walk(_ directory: Int32, _ shape: UInt64) {
            for (name, target) in tree.entries(of: directory) {
                let child = PathShape.extend(shape, tree.names.name(name))
                let isDirectory = tree.isDirectory(target) == true
                if isDirectory { walk(target, child) }
                collapsed.add(term(isDirectory ? .rmdir : .unlink, path: child, destination: noDestination))
            }
        }
        if tree.isDirectory(inode) == true { walk(inode, PathShape.of(path)) }
        return collapsed
    }

    /// The terms of the steps a tree copied at once stands for besides its own mkdir (see
    /// `ModelFileSystem.linkTree`): an mkdir of each directory and a link of each file below
    /// `inode` (the source, at `source`) but temporary and backup names, and with `syncing` an
    /// fsync of each directory of the copy at `destination`.
    static func linkTerms(_ tree: ModelTree, source: String, inode: Int32, destination: String, syncing: Bool) -> Collapsed {
        var collapsed = Collapsed()
        func walk(_ directory: Int32, _ from: UInt64, _ to: UInt64) {
            for (name, target) in tree.entries(of: directory) where !tree.names.isTransient(name) {
                let text = tree.names.name(name)
                let fromChild = PathShape.extend(from, text)
                let toChild = PathShape.extend(to, text)
                if tree.isDirectory(target) == true {
                    collapsed.add(term(.mkdir, path: toChild, destination: noDestination))
                    walk(target, fromChild, toChild)
                } else {
                    collapsed.add(term(.link, path: fromChild, destination: toChild))
                }
            }
            if syncing { collapsed.add(term(.fsyncDirectory, path: to, destination: noDestination)) }
        }
        if tree.isDirectory(inode) == true { walk(inode, PathShape.of(source), PathShape.of(destination)) }
        return collapsed
    }

    /// The signature of a recovery from its steps and the terms of the trees it removed or copied at once.
    static func of(_ steps: [FileOperation], collapsed: [UInt64]) -> UInt64 {
        var terms = Set(collapsed)
        for step in steps { terms.insert(term(step)) }
        var signature: UInt64 = 0
        for value in terms.sorted() { signature = ContentHash.combine(signature, value) }
        return signature
    }
}
