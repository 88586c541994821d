import FilterzTestSupport
import Foundation
import Testing

@testable import Playback

/// Golden numbers computed by hand (bias-corrected EWMA with weights = transfer seconds, as hls.js and Sabre).
@Suite struct EstimatorTests {
    /// A sample of `megabits` transferred in `seconds` after `latency` seconds to the first byte.
    static func sample(
        _ estimator: inout BandwidthEstimator, bitsPerSecond: Double, seconds: Double, latency: Double = 0
    ) {
        let bytes = Int((bitsPerSecond * seconds / 8).rounded())
        estimator.record(bytes: bytes, durationSeconds: seconds + latency, timeToFirstByteSeconds: latency)
    }

    @Test func noEstimateBeforeTheFirstSample() {
        let estimator = BandwidthEstimator()
        #expect(estimator.estimateBitsPerSecond == nil)
        #expect(estimator.harmonicMeanBitsPerSecond == nil)
        #expect(estimator.latencySeconds == nil)
    }

    @Test func oneSampleIsItsOwnEstimateThanksToBiasCorrection() {
        var estimator = BandwidthEstimator()
        Self.sample(&estimator, bitsPerSecond: 3_000_000, seconds: 0.7, latency: 0.1)
        #expect(abs(estimator.estimateBitsPerSecond! - 3_000_000) < 1e-6)
        #expect(abs(estimator.latencySeconds! - 0.1) < 1e-12)
    }

    @Test func estimateIsTheSmallerOfFastAndSlowAverages() {
        // Rising: 1 Mbps over 1 s then 2 Mbps over 2 s. fast (3 s) = 1740078.95, slow (8 s) = 1695095.44.
        var rising = BandwidthEstimator()
        Self.sample(&rising, bitsPerSecond: 1_000_000, seconds: 1)
        Self.sample(&rising, bitsPerSecond: 2_000_000, seconds: 2)
        #expect(abs(rising.fastEstimateBitsPerSecond! - 1_740_078.9501051267) < 1e-3)
        #expect(abs(rising.slowEstimateBitsPerSecond! - 1_695_095.443827672) < 1e-3)
        #expect(abs(rising.estimateBitsPerSecond! - 1_695_095.443827672) < 1e-3)
        // Falling: 8 Mbps over 0.5 s then 2 Mbps over 4 s: the fast average (2401860.31) reacts first.
        var falling = BandwidthEstimator()
        Self.sample(&falling, bitsPerSecond: 8_000_000, seconds: 0.5)
        Self.sample(&falling, bitsPerSecond: 2_000_000, seconds: 4)
        #expect(abs(falling.estimateBitsPerSecond! - 2_401_860.309285356) < 1e-3)
        #expect(abs(falling.slowEstimateBitsPerSecond! - 2_557_105.974214318) < 1e-3)
    }

    @Test func latencyIsExcludedFromThroughput() {
        var estimator = BandwidthEstimator()
        Self.sample(&estimator, bitsPerSecond: 4_000_000, seconds: 1, latency: 0.5)
        #expect(abs(estimator.estimateBitsPerSecond! - 4_000_000) < 1e-6)
    }

    @Test func harmonicMeanCoversTheLastFiveSamples() {
        var estimator = BandwidthEstimator()
        Self.sample(&estimator, bitsPerSecond: 50_000_000, seconds: 1)  // pushed out of the window
        for rate in [1_000_000.0, 2_000_000, 4_000_000, 4_000_000, 2_000_000] {
            Self.sample(&estimator, bitsPerSecond: rate, seconds: 1)
        }
        // 5 / (1/1 + 1/2 + 1/4 + 1/4 + 1/2) Mbps = 2 Mbps.
        #expect(abs(estimator.harmonicMeanBitsPerSecond! - 2_000_000) < 1e-3)
    }

    @Test func predictionErrorIsRelativeToTheMeasuredSample() {
        var estimator = BandwidthEstimator()
        Self.sample(&estimator, bitsPerSecond: 2_000_000, seconds: 1)
        Self.sample(&estimator, bitsPerSecond: 1_000_000, seconds: 1)  // predicted 2 Mbps, got 1: error 100 %
        #expect(abs(estimator.maxRecentRelativeError - 1) < 1e-9)
    }

    @Test func latencyEstimateIsTheLargerOfTwoAverages() {
        var estimator = BandwidthEstimator()
        Self.sample(&estimator, bitsPerSecond: 1_000_000, seconds: 1, latency: 0.1)
        Self.sample(&estimator, bitsPerSecond: 1_000_000, seconds: 1, latency: 0.3)
        // Half-lives 3 and 8 samples: the slow average stays nearer 0.1, the fast one moves more; max = fast.
        let a3 = pow(2, -1.0 / 3)
        let fast = (0.3 * (1 - a3) + a3 * (0.1 * (1 - a3))) / (1 - a3 * a3)
        #expect(abs(estimator.latencySeconds! - fast) < 1e-12)
    }

    /// The latency averages' bias correction comes from a table of pow(alpha, n) (`ExponentialAverage.unitPowers`)
    /// while every weight is 1: the estimate must be the bits of the plain formula, within the table and past it.
    @Test func latencyEstimateIsThePlainFormulaBitForBit() {
        var estimator = BandwidthEstimator()
        let alphas = [3.0, 8.0].map { exp(log(0.5) / $0) }
        var raw = [0.0, 0.0]
        var generator = SeededGenerator(seed: 0x1A7E_0C1E)
        for n in 1...(ExponentialAverage.unitPowersCount + 40) {
            let latency = Double.random(in: 0.01...0.4, using: &generator)
            estimator.record(bytes: 100_000, durationSeconds: 1 + latency, timeToFirstByteSeconds: latency)
            var values: [Double] = []
            for i in 0..<2 {
                raw[i] = latency * (1 - alphas[i]) + alphas[i] * raw[i]
                let zeroFactor = 1 - pow(alphas[i], Double(n))
                values.append(zeroFactor > 0 ? raw[i] / zeroFactor : raw[i])
            }
            #expect(estimator.latencySeconds!.bitPattern == max(values[0], values[1]).bitPattern, "sample \(n)")
        }
        // Weights other than 1 leave the table: the formula with pow of the total weight.
        var average = ExponentialAverage(halfLife: 3)
        average.add(2, weight: 1)
        average.add(4, weight: 0.5)
        let a = alphas[0]
        let expected = (4 * (1 - pow(a, 0.5)) + pow(a, 0.5) * (2 * (1 - a))) / (1 - pow(a, 1.5))
        #expect(average.value!.bitPattern == expected.bitPattern)
    }

    @Test func withoutThroughputAveragesTheRestIsUnchanged() {
        var full = BandwidthEstimator()
        var lean = BandwidthEstimator(configuration: EstimatorConfiguration(throughputAverages: false))
        for (rate, latency) in [
            (1_000_000.0, 0.1), (3_000_000, 0.05), (500_000, 0.2), (2_000_000, 0.1), (4_000_000, 0.3), (800_000, 0.1),
        ] {
            Self.sample(&full, bitsPerSecond: rate, seconds: 1.5, latency: latency)
            Self.sample(&lean, bitsPerSecond: rate, seconds: 1.5, latency: latency)
        }
        #expect(full.estimateBitsPerSecond != nil)
        #expect(lean.estimateBitsPerSecond == nil)
        #expect(lean.harmonicMeanBitsPerSecond == full.harmonicMeanBitsPerSecond)
        #expect(lean.recentBitsPerSecond == full.recentBitsPerSecond)
        #expect(lean.recentRelativeErrors == full.recentRelativeErrors)
        #expect(lean.maxRecentRelativeError == full.maxRecentRelativeError)
        #expect(lean.latencySeconds == full.latencySeconds)
    }
}
