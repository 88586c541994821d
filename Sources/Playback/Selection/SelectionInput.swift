/// Everything a selection depends on; no hidden state but the rule's own.
public struct SelectionInput: Sendable {
    /// The ladder, ascending bandwidth; `variants[i].index == i`.
    public var variants: [VariantInfo]
    /// Index of the segment about to be requested.
    public var segmentIndex: Int
    public var segmentDurationSeconds: Double
    /// Known sizes of upcoming segments: `upcomingSegmentBytes[k][v]` = bytes of segment `segmentIndex + k`
    /// at variant `v`. May be empty (then rules use bandwidth × duration).
    public var upcomingSegmentBytes: [[Int]]
    /// The estimator's throughput estimate (nil before the first sample), computed when a rule reads it: the
    /// look-ahead rules never do, and it costs two `pow` a decision.
    public var throughputBitsPerSecond: Double? { estimator.estimateBitsPerSecond }
    /// Full estimator state (EWMA, harmonic mean, latency).
    public var estimator: BandwidthEstimator
    public var bufferSeconds: Double
    public var maxBufferSeconds: Double
    public var previousVariantIndex: Int?
    /// nil = no viewport cap.
    public var viewport: Viewport?
    public var userChoice: QualityChoice
    public var isStartup: Bool
    /// Segments left in the stream including this one (VOD); nil when unknown or live.
    public var remainingSegments: Int?
    /// The ladder position of the variant listed first in the multivariant playlist (hls.js starts there).
    public var firstListedVariantIndex = 0
    /// False when nobody reads `Selection.reason` (a batch simulation): the rules then skip formatting
    /// it, which is a sizeable part of a decision.
    public var explains = true

    public init(
        variants: [VariantInfo], segmentIndex: Int, segmentDurationSeconds: Double,
        upcomingSegmentBytes: [[Int]] = [], estimator: BandwidthEstimator = BandwidthEstimator(),
        bufferSeconds: Double, maxBufferSeconds: Double,
        previousVariantIndex: Int? = nil, viewport: Viewport? = nil, userChoice: QualityChoice = .auto,
        isStartup: Bool = false, remainingSegments: Int? = nil
    ) {
        self.remainingSegments = remainingSegments
        self.variants = variants
        self.segmentIndex = segmentIndex
        self.segmentDurationSeconds = segmentDurationSeconds
        self.upcomingSegmentBytes = upcomingSegmentBytes
        self.estimator = estimator
        self.bufferSeconds = bufferSeconds
        self.maxBufferSeconds = maxBufferSeconds
        self.previousVariantIndex = previousVariantIndex
        self.viewport = viewport
        self.userChoice = userChoice
        self.isStartup = isStartup
    }

    /// Bytes of segment `segmentIndex + ahead` at `variant`: the known size, else nominal rate × duration.
    public func segmentBytes(ahead: Int = 0, variant: Int) -> Int {
        if ahead < upcomingSegmentBytes.count {
            let row = upcomingSegmentBytes[ahead]
            if variant < row.count { return row[variant] }
        }
        return Self.nominalBytes(of: variants[variant], seconds: segmentDurationSeconds)
    }

    /// Bytes of a segment of `seconds` at the variant's nominal rate (when its size is not known).
    static func nominalBytes(of variant: VariantInfo, seconds: Double) -> Int {
        Int((Double(variant.nominalBitsPerSecond) * seconds / 8).rounded())
    }
}
