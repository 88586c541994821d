import Foundation

/// hls.js 1.6's bandwidth estimator (`EwmaBandWidthEstimator` over `EWMA`), for the `hlsjs` rule: the smaller
/// of a fast and a slow average of download rates weighted by download seconds, a default estimate until the
/// fast one has weight, and an average of times to first byte weighted by a bell curve of the time itself.
///
/// It differs from `BandwidthEstimator` in what it is fed (hls.js subtracts the smaller of the measured and the
/// estimated time to first byte, and samples partial loads when it abandons one), in its 50 ms floor, in its
/// default estimate and in its one latency average with its own weights; so it is a type of its own.
public struct HLSJSBandwidthEstimator: Sendable {
    /// hls.js `abrEwmaFastVoD`, default 3 (seconds of download).
    public static let fastHalfLifeSeconds = 3.0
    /// hls.js `abrEwmaSlowVoD`, default 9 (seconds of download); also the half-life of the time-to-first-byte
    /// average, which hls.js builds with the slow half-life.
    public static let slowHalfLifeSeconds = 9.0
    /// hls.js `abrEwmaDefaultEstimate`, default 500 kbit/s: the estimate before any sample.
    public static let defaultEstimateBitsPerSecond = 500_000.0
    /// hls.js `abrEwmaDefaultEstimateMax`, default 5 Mbit/s: the most the first listed variant's BANDWIDTH may
    /// raise the default estimate to when the manifest loads.
    public static let defaultEstimateMaxBitsPerSecond = 5_000_000.0
    /// The estimator's `minDelayMs_` (50 ms): a sample's duration is at least this.
    public static let minimumSampleSeconds = 0.05
    /// The estimator's `minWeight_` (0.001 s): below this much weight the default estimate is used.
    public static let minimumWeight = 0.001
    /// The estimator's `defaultTTFB` (100 ms): the time-to-first-byte estimate before any sample.
    public static let defaultTimeToFirstByteSeconds = 0.1

    /// The estimate used until samples have weight (hls.js sets it again when it resets the estimator).
    public private(set) var defaultEstimateBitsPerSecond: Double
    private var fast = ExponentialAverage(halfLife: fastHalfLifeSeconds)
    private var slow = ExponentialAverage(halfLife: slowHalfLifeSeconds)
    /// Times to first byte, in milliseconds as hls.js keeps them.
    private var timeToFirstByte = ExponentialAverage(halfLife: slowHalfLifeSeconds)

    public init(defaultEstimateBitsPerSecond: Double = defaultEstimateBitsPerSecond) {
        self.defaultEstimateBitsPerSecond = defaultEstimateBitsPerSecond
    }

    /// True once the fast average has `minimumWeight` (hls.js `canEstimate`).
    public var canEstimate: Bool { fast.totalWeight >= Self.minimumWeight }

    /// min(fast, slow) once it can estimate, else the default estimate (hls.js `getEstimate`).
    public var estimateBitsPerSecond: Double {
        guard canEstimate, let fast = fast.value, let slow = slow.value else { return defaultEstimateBitsPerSecond }
        return min(fast, slow)
    }

    /// The time-to-first-byte average once it has `minimumWeight`, else 100 ms (hls.js `getEstimateTTFB`).
    public var timeToFirstByteSeconds: Double {
        guard timeToFirstByte.totalWeight >= Self.minimumWeight, let ms = timeToFirstByte.value else {
            return Self.defaultTimeToFirstByteSeconds
        }
        return ms / 1000
    }

    /// `bytes` in `seconds` (at least 50 ms): one rate sample weighted by its seconds (hls.js `sample`).
    public mutating func sample(seconds: Double, bytes: Int) {
        let duration = max(seconds, Self.minimumSampleSeconds)
        let bitsPerSecond = Double(bytes) * 8 / duration
        fast.add(bitsPerSecond, weight: duration)
        slow.add(bitsPerSecond, weight: duration)
    }

    /// One time to first byte (hls.js `sampleTTFB`): weighted √2·e^(−t²/2) with t in seconds, so slow answers
    /// count less; the value is at least 5 ms.
    public mutating func sampleTimeToFirstByte(seconds: Double) {
        let weight = 2.0.squareRoot() * exp(-seconds * seconds / 2)
        timeToFirstByte.add(max(seconds * 1000, 5), weight: weight)
    }

    /// A fresh estimator whose default is `bitsPerSecond` (hls.js `resetEstimator`: every average starts over).
    public mutating func reset(defaultEstimateBitsPerSecond bitsPerSecond: Double) {
        self = HLSJSBandwidthEstimator(defaultEstimateBitsPerSecond: bitsPerSecond)
    }
}
