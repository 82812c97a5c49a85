import TestSupport
import Testing

@testable import SessionFormats

/// Where stored tabs land once dropped ones are taken out, looked up both ways.
@Suite struct RestoredPositionsTests {
    init() { Browsers.install() }

    @Test func positionsMapStoredAndRestoredIndexesBothWays() {
        let positions = RestoredPositions(storedCount: 6, removing: RemovedIndexes([0, 2, 3]))
        #expect(positions.restoredCount == 3)
        #expect(positions.restoredIndexes == [nil, 0, nil, nil, 1, 2])
        #expect((0..<3).map { positions.storedIndex(ofRestored: $0) } == [1, 4, 5])
        #expect(positions.storedIndex(ofRestored: 3) == nil)
        #expect(positions.restoredIndex(ofStored: -1) == nil)
        #expect(positions.restoredIndex(ofStored: 6) == nil)
    }

    @Test func removalsOutsideTheListChangeNothing() {
        let positions = RestoredPositions(storedCount: 3, removing: RemovedIndexes([-4, 7]))
        #expect(positions.restoredIndexes == [0, 1, 2])
    }

    @Test func ascendingRemovalsMatchTheSortingInitialiser() {
        for indexes in [[1, 3, 8], [], [5], [4, 2, 2, 9]] {
            #expect(RemovedIndexes(ascending: indexes) == RemovedIndexes(indexes))
        }
    }
}
