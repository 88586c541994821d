/// Tunables of `BandwidthEstimator`.
public struct EstimatorConfiguration: Sendable, Hashable {
    /// Half-life of the fast EWMA, in seconds of download time (hls.js and Sabre: 3).
    public var fastHalfLifeSeconds: Double
    /// Half-life of the slow EWMA, in seconds of download time (Sabre: 8, hls.js VoD: 9).
    public var slowHalfLifeSeconds: Double
    /// Number of recent samples in the harmonic mean (RobustMPC: 5).
    public var harmonicWindow: Int
    /// Half-lives of the latency EWMAs, in samples (the estimate is the larger of the two). Sabre's are its
    /// throughput half-lives divided by the segment duration (2 and 0.75 samples for 4 s segments); the two
    /// only differ when the latency changes.
    public var fastLatencyHalfLifeSamples: Double
    public var slowLatencyHalfLifeSamples: Double
    /// Shortest transfer time a sample is credited with, so a cached instant response is not infinite throughput.
    public var minimumSampleSeconds: Double
    /// False: the two throughput EWMAs are not kept (`estimateBitsPerSecond` stays nil), which saves two `pow` a
    /// sample for a caller whose rule never reads them (`QualitySelector.readsThroughputEstimate`); the harmonic
    /// mean, its errors and the latency are kept either way.
    public var throughputAverages: Bool

    public init(
        fastHalfLifeSeconds: Double = 3, slowHalfLifeSeconds: Double = 8, harmonicWindow: Int = 5,
        fastLatencyHalfLifeSamples: Double = 3, slowLatencyHalfLifeSamples: Double = 8,
        minimumSampleSeconds: Double = 0.001, throughputAverages: Bool = true
    ) {
        self.throughputAverages = throughputAverages
        self.fastHalfLifeSeconds = fastHalfLifeSeconds
        self.slowHalfLifeSeconds = slowHalfLifeSeconds
        self.harmonicWindow = harmonicWindow
        self.fastLatencyHalfLifeSamples = fastLatencyHalfLifeSamples
        self.slowLatencyHalfLifeSamples = slowLatencyHalfLifeSamples
        self.minimumSampleSeconds = minimumSampleSeconds
    }
}
