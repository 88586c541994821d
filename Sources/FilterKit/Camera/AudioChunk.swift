import MediaTime

/// A run of PCM sample frames from the simulated microphone.
public struct AudioChunk: Sendable, Hashable {
    /// Index of the first sample frame since the start of capture.
    public var startSample: Int64
    public var sampleRate: Int
    public var channelCount: Int
    /// Sample frames in this chunk (samples.count / channelCount).
    public var frameCount: Int
    /// Interleaved float samples in −1…1.
    public var samples: [Float]

    /// The first sample's time: `startSample / sampleRate` seconds.
    public var timestamp: Timestamp { Timestamp(startSample, timescale: Int32(sampleRate)) }

    /// The samples as interleaved signed 16-bit integers (rounded, clipped).
    public var int16Samples: [Int16] {
        samples.map { Int16(max(-32768, min(32767, ($0 * 32767).rounded()))) }
    }
}
