import Foundation

/// How far each band of rows has been written, so work that reads the rows (the blur's vertical passes) can start
/// on the rows already there instead of waiting for every band: the bands finish at different times, and the
/// last one's rows then arrive while the first strips are being blurred.
final class RowProgress: @unchecked Sendable {  // `next` and `wanted` are guarded by `condition`
    /// Rows a reader waits for past the one it needs (or to the end of the band), so it wakes once per batch of
    /// rows rather than once per row pair.
    static var batchRows: Int { 32 }

    private let condition = NSCondition()
    private let bands: [Range<Int>]
    /// Per band, the next row it writes (its rows are written in order).
    private var next: [Int]
    /// Per band, the lowest row a reader waits for (`Int.max` when none waits).
    private var wanted: [Int]

    init(bands: [Range<Int>]) {
        self.bands = bands
        next = bands.map(\.lowerBound)
        wanted = bands.map { _ in Int.max }
    }

    /// Band `band` has written its rows up to and including `y`.
    func written(through y: Int, band: Int) {
        condition.lock()
        defer { condition.unlock() }
        next[band] = y + 1
        if y >= wanted[band] {
            wanted[band] = Int.max
            condition.broadcast()
        }
    }

    /// Returns once row `y` has been written (at once when it has), with the last row of the run of written rows
    /// from `y` on, so a reader asks again only past it.
    func wait(for y: Int) -> Int {
        var band = bands.firstIndex { $0.contains(y) }!
        condition.lock()
        defer { condition.unlock() }
        while next[band] <= y {
            wanted[band] = min(wanted[band], min(y + Self.batchRows - 1, bands[band].upperBound - 1))
            condition.wait()
        }
        while next[band] == bands[band].upperBound && band + 1 < bands.count { band += 1 }
        return next[band] - 1
    }
}
