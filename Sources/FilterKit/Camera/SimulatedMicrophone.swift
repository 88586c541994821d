import Foundation

/// A deterministic stand-in for the phone microphone: a repeating exponential tone sweep plus seeded noise.
///
/// Samples are 32-bit float in −1…1, interleaved when stereo (`int16Samples` gives signed 16-bit), at
/// `sampleRate` (48 kHz by default). The sweep rises from `sweepStartHz` to `sweepEndHz` over `sweepSeconds`
/// and starts again, with phase φ(t) = 2π f₀ T / ln(f₁/f₀) · ((f₁/f₀)^(t/T) − 1) (Farina's exponential sweep).
/// A chunk's timestamp is its first sample's index in a timescale equal to the sample rate, so audio and
/// video time stay exact. The same seed gives the same samples.
public struct SimulatedMicrophone: Sendable {
    public struct Configuration: Sendable, Hashable {
        public var sampleRate: Int
        /// 1 (mono) or 2 (stereo; both channels carry the sweep, with independent noise).
        public var channelCount: Int
        public var seed: UInt64
        public var sweepStartHz: Double
        public var sweepEndHz: Double
        public var sweepSeconds: Double
        /// Peak level of the sweep, 0…1.
        public var level: Double
        /// Peak level of the uniform noise, 0…1.
        public var noiseLevel: Double

        public init(
            sampleRate: Int = 48_000, channelCount: Int = 2, seed: UInt64 = 1, sweepStartHz: Double = 220,
            sweepEndHz: Double = 1760, sweepSeconds: Double = 4, level: Double = 0.25, noiseLevel: Double = 0.01
        ) {
            self.sampleRate = sampleRate
            self.channelCount = channelCount
            self.seed = seed
            self.sweepStartHz = sweepStartHz
            self.sweepEndHz = sweepEndHz
            self.sweepSeconds = sweepSeconds
            self.level = level
            self.noiseLevel = noiseLevel
        }
    }

    public let configuration: Configuration

    public init(_ configuration: Configuration = Configuration()) {
        precondition(configuration.sampleRate > 0 && (1...2).contains(configuration.channelCount))
        self.configuration = configuration
    }

    /// `frameCount` sample frames starting at sample index `start`.
    public func chunk(startingAt start: Int64, frameCount: Int) -> AudioChunk {
        let c = configuration
        let ratio = c.sweepEndHz / c.sweepStartHz
        let k = 2 * Double.pi * c.sweepStartHz * c.sweepSeconds / log(ratio)
        let period = Int64((c.sweepSeconds * Double(c.sampleRate)).rounded())
        var samples = [Float]()
        samples.reserveCapacity(frameCount * c.channelCount)
        for n in start..<(start + Int64(frameCount)) {
            let t = Double(n % max(period, 1)) / Double(c.sampleRate)
            let tone = c.level * sin(k * (pow(ratio, t / c.sweepSeconds) - 1))
            for channel in 0..<c.channelCount {
                let noise =
                    (SimulatedCamera.unit(c.seed, 0xA0D10 + UInt64(channel), UInt64(bitPattern: n)) * 2 - 1)
                    * c.noiseLevel
                samples.append(Float(tone + noise))
            }
        }
        return AudioChunk(
            startSample: start, sampleRate: c.sampleRate, channelCount: c.channelCount, frameCount: frameCount,
            samples: samples)
    }

    /// Consecutive chunks of `framesPerChunk` covering `durationSeconds` (the last one may be shorter).
    public func chunks(durationSeconds: Double, framesPerChunk: Int = 1024) -> [AudioChunk] {
        let total = Int64((durationSeconds * Double(configuration.sampleRate)).rounded())
        return stride(from: Int64(0), to: total, by: framesPerChunk).map {
            chunk(startingAt: $0, frameCount: Int(min(Int64(framesPerChunk), total - $0)))
        }
    }
}
