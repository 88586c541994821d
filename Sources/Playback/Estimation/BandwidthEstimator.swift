/// Estimates throughput and request latency from finished downloads. Pure value type.
///
/// - Throughput: two EWMAs over per-download throughput, weighted by transfer seconds (fast and slow
///   half-lives), bias-corrected; the estimate is the smaller of the two, so it falls fast and rises slowly
///   (hls.js `EwmaBandWidthEstimator`, Sabre `Ewma`).
/// - A harmonic mean of the last few samples and the largest relative error of recent predictions
///   (RobustMPC's inputs).
/// - Latency (time to first byte): two EWMAs per request, the estimate is the larger.
///
/// A sample's throughput is bits over transfer time (duration minus time to first byte), so latency is
/// accounted once, by `latencySeconds`.
public struct BandwidthEstimator: Sendable {
    public let configuration: EstimatorConfiguration
    private var fast: ExponentialAverage
    private var slow: ExponentialAverage
    private var fastLatency: ExponentialAverage
    private var slowLatency: ExponentialAverage
    /// The most recent throughput samples, oldest first (at most `harmonicWindow`).
    public private(set) var recentBitsPerSecond: [Double] = []
    /// Relative errors |predicted − actual| / actual of the harmonic-mean prediction, most recent last.
    public private(set) var recentRelativeErrors: [Double] = []
    /// Number of samples recorded.
    public private(set) var sampleCount = 0

    public init(configuration: EstimatorConfiguration = .init()) {
        self.configuration = configuration
        fast = ExponentialAverage(halfLife: configuration.fastHalfLifeSeconds)
        slow = ExponentialAverage(halfLife: configuration.slowHalfLifeSeconds)
        fastLatency = ExponentialAverage(halfLife: configuration.fastLatencyHalfLifeSamples)
        slowLatency = ExponentialAverage(halfLife: configuration.slowLatencyHalfLifeSamples)
    }

    /// A finished download: bytes, wall seconds from request to last byte, seconds to first byte.
    public mutating func record(bytes: Int, durationSeconds: Double, timeToFirstByteSeconds: Double) {
        let transfer = max(durationSeconds - timeToFirstByteSeconds, configuration.minimumSampleSeconds)
        let bitsPerSecond = Double(bytes) * 8 / transfer
        recordThroughput(bitsPerSecond: bitsPerSecond, transferSeconds: transfer)
        recordLatency(seconds: max(timeToFirstByteSeconds, 0))
    }

    /// A throughput sample measured elsewhere, weighted by its transfer seconds.
    public mutating func recordThroughput(bitsPerSecond: Double, transferSeconds: Double) {
        if let predicted = harmonicMeanBitsPerSecond, bitsPerSecond > 0 {
            recentRelativeErrors.slide(
                abs(predicted - bitsPerSecond) / bitsPerSecond, keeping: configuration.harmonicWindow)
            maxRecentRelativeError = recentRelativeErrors.max() ?? 0
        }
        if configuration.throughputAverages {
            fast.add(bitsPerSecond, weight: transferSeconds)
            slow.add(bitsPerSecond, weight: transferSeconds)
        }
        recentBitsPerSecond.slide(bitsPerSecond, keeping: configuration.harmonicWindow)
        harmonicMeanBitsPerSecond = Self.harmonicMean(of: recentBitsPerSecond)
        sampleCount += 1
    }

    /// One request's time to first byte.
    public mutating func recordLatency(seconds: Double) {
        fastLatency.add(seconds, weight: 1)
        slowLatency.add(seconds, weight: 1)
    }

    /// min(fast EWMA, slow EWMA); nil until the first sample.
    public var estimateBitsPerSecond: Double? {
        guard let f = fast.value, let s = slow.value else { return nil }
        return min(f, s)
    }

    public var fastEstimateBitsPerSecond: Double? { fast.value }
    public var slowEstimateBitsPerSecond: Double? { slow.value }

    /// Harmonic mean of the last `harmonicWindow` samples; nil until the first. Kept with the samples: the
    /// look-ahead rules read it every decision, and each sample's prediction error needs it too.
    public private(set) var harmonicMeanBitsPerSecond: Double?

    /// The largest relative error of the harmonic-mean prediction over the window (0 when none yet), kept with
    /// the errors.
    public private(set) var maxRecentRelativeError = 0.0

    /// n / Σ 1/x of the samples (0 when one is not positive; nil when there are none).
    static func harmonicMean(of samples: [Double]) -> Double? {
        guard !samples.isEmpty else { return nil }
        var reciprocal = 0.0
        for sample in samples {
            guard sample > 0 else { return 0 }
            reciprocal += 1 / sample
        }
        return Double(samples.count) / reciprocal
    }

    /// max(fast, slow) latency EWMA, seconds; nil until the first sample.
    public var latencySeconds: Double? {
        // Inlined where a rule reads it, so the caller does not copy the whole estimator to call it.
        @inline(__always) get {
            guard let f = fastLatency.value, let s = slowLatency.value else { return nil }
            return max(f, s)
        }
    }
}

extension Array where Element == Double {
    /// Appends `value` and drops the oldest elements beyond `limit`. A full window shifts in place and takes the
    /// value at its end (`append` then `removeFirst` would go through a generic range replacement and check the
    /// capacity, several times the cost for a window of a few samples).
    fileprivate mutating func slide(_ value: Double, keeping limit: Int) {
        guard limit > 0, count == limit else {
            // Still filling (or a window of no samples).
            append(value)
            while count > Swift.max(limit, 0) { removeFirst() }
            return
        }
        withUnsafeMutableBufferPointer { window in
            for i in 0..<(window.count - 1) { window[i] = window[i + 1] }
            window[window.count - 1] = value
        }
    }
}
