/// Decides where a part (LL-HLS partial segment) ends within its segment, packet by packet.
///
/// Part boundaries lie on a fixed grid, `n × partDuration` from `gridOrigin` (the segment's start; a segmenter
/// starts a new cutter with each segment and closes the part in progress at the segment's end). A part
/// ends after the packet whose end reaches the next boundary, so it is published as soon as its last sample is
/// encoded rather than when the following packet arrives. Compared as fractions, never as floats.
///
///     var cutter = PartCutter(partDuration: Timestamp(10, timescale: 30), gridOrigin: .zero)
///     cutter.packetEnded(at: Timestamp(9, timescale: 30))    // false
///     cutter.packetEnded(at: Timestamp(10, timescale: 30))   // true: part 0 is complete
public struct PartCutter: Sendable {
    public let partDuration: Timestamp
    /// Where the grid starts; nil anchors it at the first packet's start (`begin(at:)`).
    public private(set) var gridOrigin: Timestamp?
    /// Index of the next grid boundary.
    private var nextBoundary: Int64 = 1

    public init(partDuration: Timestamp, gridOrigin: Timestamp? = nil) {
        precondition(partDuration > .zero, "PartCutter needs a positive part duration")
        self.partDuration = partDuration
        self.gridOrigin = gridOrigin
    }

    /// Anchors the grid at the first packet (when no origin was given) and skips boundaries it already passed.
    public mutating func begin(at start: Timestamp) {
        let origin = gridOrigin ?? start
        gridOrigin = origin
        while start - origin >= partDuration * nextBoundary { nextBoundary += 1 }
    }

    /// Reports that a packet ending at `end` was written; true when it completes the current part.
    public mutating func packetEnded(at end: Timestamp) -> Bool {
        if gridOrigin == nil { begin(at: end) }
        guard let origin = gridOrigin, end - origin >= partDuration * nextBoundary else { return false }
        while end - origin >= partDuration * (nextBoundary + 1) { nextBoundary += 1 }
        nextBoundary += 1
        return true
    }

    /// Reports a packet about to be written at `start`; true when it lies past the boundary of the part in
    /// progress (packets before it were left out), which must then end before it.
    public mutating func packetStarts(at start: Timestamp) -> Bool {
        guard let origin = gridOrigin, start - origin >= partDuration * nextBoundary else { return false }
        while start - origin >= partDuration * (nextBoundary + 1) { nextBoundary += 1 }
        nextBoundary += 1
        return true
    }

    /// The end of the part in progress, as a presentation time (nil before the grid is anchored).
    public var nextBoundaryTime: Timestamp? { gridOrigin.map { $0 + partDuration * nextBoundary } }
}
