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
    /// Samples so far while every weight was 1 (then `totalWeight` is exactly this many); −1 after any other.
    private var unitSamples = 0
    /// Where pow(alpha, n) starts in `Self.unitPowers` (−1: this alpha has no table).
    private let powersStart: Int

    public init(halfLife: Double) {
        self.halfLife = halfLife
        let alpha = halfLife > 0 ? exp(log(0.5) / halfLife) : 0
        self.alpha = alpha
        powersStart = Self.unitPowerAlphas.firstIndex(of: alpha).map { $0 * Self.unitPowersCount } ?? -1
    }

    /// The alphas of the default latency half-lives (3 and 8 samples), whose powers are tabulated.
    static let unitPowerAlphas: [Double] = [3.0, 8.0].map { exp(log(0.5) / $0) }
    static let unitPowersCount = 1024
    /// pow(alpha, n) for n = 0..<`unitPowersCount`, one run per alpha of `unitPowerAlphas`: the same `pow` calls
    /// `value` would make, computed once per process. A unit-weight average's bias correction is then a lookup
    /// (the latency estimate is read at every decision).
    static let unitPowers: [Double] = unitPowerAlphas.flatMap { alpha in
        (0..<unitPowersCount).map { pow(alpha, Double($0)) }
    }

    /// pow(alpha, totalWeight): from the table when every weight was 1 and it covers that many samples.
    private var decayOfTotalWeight: Double {
        if powersStart >= 0 && unitSamples >= 0 && unitSamples < Self.unitPowersCount {
            return Self.unitPowers[powersStart &+ unitSamples]
        }
        return pow(alpha, totalWeight)
    }

    public mutating func add(_ value: Double, weight: Double) {
        // A unit weight (one sample per request, the latency averages) decays by alpha itself: pow(alpha, 1)
        // is alpha exactly, without the call.
        let decay: Double
        if weight == 1 {
            decay = alpha
            if unitSamples >= 0 { unitSamples += 1 }
        } else {
            decay = pow(alpha, weight)
            unitSamples = -1
        }
        raw = value * (1 - decay) + decay * raw
        totalWeight += weight
    }

    /// The bias-corrected average; nil before any weight.
    public var value: Double? {
        guard totalWeight > 0 else { return nil }
        let zeroFactor = 1 - decayOfTotalWeight
        return zeroFactor > 0 ? raw / zeroFactor : raw
    }
}
