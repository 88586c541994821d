import JSON

/// The ranges every input of a simulation must lie in, and the bounds that keep a run finite (a trace's own
/// are `TraceLimits`).
///
/// Each range is wide enough for any real stream and narrow enough that every number the simulator derives
/// stays finite, every conversion to an integer fits, and a session ends in bounded time.
public enum SimulationLimits {
    // MARK: Stream

    /// Segment duration, ms: 10 ms … 10 min.
    public static let segmentMilliseconds: ClosedRange<Double> = 10...600_000
    /// Segments in one stream.
    public static let maximumSegments = 100_000
    /// Levels (variants) in one ladder.
    public static let maximumLevels = 64
    /// A level's nominal bitrate, kbit/s: 1 kbit/s … 100 Gbit/s.
    public static let levelKilobitsPerSecond: ClosedRange<Double> = 1...100_000_000
    /// One segment's size, bits: 1 bit … 1e12 (125 GB).
    public static let segmentBits: ClosedRange<Double> = 1...1e12
    /// HEAD requests that measure the segments of a stream read over HTTP (levels × segments without a byte
    /// range): a 2-hour film of 2 s segments on a 20-level ladder takes 72,000.
    public static let maximumSizeRequests = 100_000
    /// Length of the whole stream, seconds: 24 h.
    public static let maximumStreamSeconds = 86_400.0

    // MARK: Session

    /// Virtual time a session may take, seconds (7 days): a network so slow that the stream has not played
    /// by then fails the run instead of walking the trace for ever.
    public static let maximumSessionSeconds = 604_800.0
    /// Viewer-action times (`--rotate`, `--select`, `--seek`), seconds: within the session bound.
    public static let actionSeconds: ClosedRange<Double> = 0...maximumSessionSeconds

    // MARK: Offline optimum

    /// States the offline optimum keeps over the whole stream (5 bytes each to trace the best path back);
    /// 171 real traces on the 48-segment Pensieve ladder need at most 5.3 million at the default grid.
    public static let maximumOptimumStates = 50_000_000
    /// Transitions (state × level) the optimum evaluates in one segment (37 bytes of scratch each).
    public static let maximumOptimumTransitionsPerSegment = 4_000_000
    /// Transitions the optimum evaluates in all, plus the trace periods its latency walks cross: its time bound.
    public static let maximumOptimumWork = 400_000_000
}
