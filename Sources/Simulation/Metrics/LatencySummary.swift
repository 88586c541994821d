/// How far behind the live edge a live session played: the live edge (the end of the media captured so far)
/// less the playback position, sampled at a fixed period while playing.
public struct LatencySummary: Sendable, Hashable {
    /// Median and 95th percentile (nearest rank) of the samples, seconds.
    public var p50Seconds: Double
    public var p95Seconds: Double
    public var sampleCount: Int

    /// nil when there is no sample (the session never played).
    public init?(samples: [Double]) {
        guard !samples.isEmpty else { return nil }
        let sorted = samples.sorted()
        func rank(_ p: Double) -> Double {
            sorted[min(sorted.count - 1, max(0, Int((p * Double(sorted.count)).rounded(.up)) - 1))]
        }
        p50Seconds = rank(0.5)
        p95Seconds = rank(0.95)
        sampleCount = samples.count
    }
}
