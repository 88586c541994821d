/// Decides where a segment ends, packet by packet, the way libavformat's `hls` muxer does.
///
/// A new segment starts before a packet only when the packet is a keyframe and its presentation
/// time, measured from the first packet, has reached the next boundary (compared as fractions, never
/// as floats). Boundaries lie on a fixed grid — `n × targetDuration` from the start — so a late
/// keyframe does not push every later boundary back. A packet without a timestamp never cuts.
///
///     var cutter = SegmentCutter(targetDuration: .seconds(2))
///     cutter.handle(presentationTime: Timestamp(0, timescale: 30), isKeyframe: true)   // .startSegment(0)
///     cutter.handle(presentationTime: Timestamp(60, timescale: 30), isKeyframe: true)  // .startSegment(1)
public struct SegmentCutter: Sendable {
    /// What to do with a packet.
    public enum Decision: Equatable, Sendable {
        /// Close the current segment (if any) and start segment `index` with this packet.
        case startSegment(index: Int)
        /// Append the packet to the current segment.
        case append
    }

    /// The intended segment length (the grid spacing).
    public let targetDuration: Timestamp
    /// Presentation time of the first packet (nil before it).
    public private(set) var startTime: Timestamp?
    /// Start times of every segment begun so far.
    public private(set) var segmentStarts: [Timestamp] = []
    /// Index of the next grid boundary: segment `k` may end at `startTime + k × targetDuration`.
    private var nextBoundary: Int64 = 1

    /// Where the grid starts: nil anchors it at the first packet; another stream's start time (e.g.
    /// the video's) makes this stream's cuts line up with that stream's.
    public let gridOrigin: Timestamp?

    public init(targetDuration: Timestamp, gridOrigin: Timestamp? = nil) {
        precondition(targetDuration > .zero, "SegmentCutter needs a positive target duration")
        self.targetDuration = targetDuration
        self.gridOrigin = gridOrigin
    }

    /// Feeds one packet (in decoding order; presentation time nil when unknown).
    public mutating func handle(presentationTime: Timestamp?, isKeyframe: Bool) -> Decision {
        guard let startTime else {
            guard let presentationTime else { return .append }  // nothing to anchor the grid yet
            self.startTime = presentationTime
            segmentStarts.append(presentationTime)
            if let gridOrigin {
                // Skip the boundaries the first packet already passed.
                let elapsed = presentationTime - gridOrigin
                while elapsed >= targetDuration * nextBoundary { nextBoundary += 1 }
            }
            return .startSegment(index: 0)
        }
        guard isKeyframe, let presentationTime else { return .append }
        let elapsed = presentationTime - (gridOrigin ?? startTime)
        guard elapsed >= targetDuration * nextBoundary else { return .append }
        // Skip every grid boundary this keyframe has already passed.
        while elapsed >= targetDuration * (nextBoundary + 1) { nextBoundary += 1 }
        nextBoundary += 1
        segmentStarts.append(presentationTime)
        return .startSegment(index: segmentStarts.count - 1)
    }

    /// The grid boundary a segment must reach before the next cut, as a presentation time.
    public var nextBoundaryTime: Timestamp? {
        (gridOrigin ?? startTime).map { $0 + targetDuration * nextBoundary }
    }
}
