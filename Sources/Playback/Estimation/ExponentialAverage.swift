import Foundation

/// An exponentially weighted moving average whose samples carry weights (e.g. seconds of download), with the
/// zero-start bias corrected (the estimate of one sample is that sample), as in hls.js `EWMA` and Sabre.
public struct ExponentialAverage: Sendable, Hashable {
    /// Weight after which an old sample counts half.
    public let halfLife: Double
    private let alpha: Double
    private var raw: Double = 0
    /// Sum of all sample weights so far.
    public private(set) var totalWeight: Double = 0

    public init(halfLife: Double) {
        self.halfLife = halfLife
        self.alpha = halfLife > 0 ? exp(log(0.5) / halfLife) : 0
    }

    public mutating func add(_ value: Double, weight: Double) {
        // A unit weight (one sample per request, the latency averages) decays by alpha itself: pow(alpha, 1)
        // is alpha exactly, without the call.
        let decay = weight == 1 ? alpha : pow(alpha, weight)
        raw = value * (1 - decay) + decay * raw
        totalWeight += weight
    }

    /// The bias-corrected average; nil before any weight.
    public var value: Double? {
        guard totalWeight > 0 else { return nil }
        let zeroFactor = 1 - pow(alpha, totalWeight)
        return zeroFactor > 0 ? raw / zeroFactor : raw
    }
}
