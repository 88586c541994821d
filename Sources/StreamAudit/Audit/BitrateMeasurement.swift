import HLS

/// A playlist's bitrates measured from its segments' sizes and EXTINF durations.
///
/// Peak follows RFC 8216bis §4.4.6.2: the largest bit rate of any run of consecutive segments whose total
/// duration is between 0.5 and 1.5 times the target duration (a single segment when no run qualifies, e.g.
/// when `--segments N` left gaps). Average is all segment bits over their total duration.
public struct BitrateMeasurement: Hashable, Sendable {
    public var peakBitsPerSecond: Int?
    public var averageBitsPerSecond: Int?
    /// Each loaded segment: start time in the playlist, duration, bits per second (for charts).
    public var samples: [Sample]

    public struct Sample: Hashable, Sendable {
        public var startSeconds: Double
        public var durationSeconds: Double
        public var bitsPerSecond: Int

        public init(startSeconds: Double, durationSeconds: Double, bitsPerSecond: Int) {
            self.startSeconds = startSeconds
            self.durationSeconds = durationSeconds
            self.bitsPerSecond = bitsPerSecond
        }
    }

    public init(_ audited: AuditedPlaylist) {
        let targetSeconds = Double(audited.playlist.targetDuration ?? 0)
        var start = 0.0
        var runs: [(bits: Double, seconds: Double)?] = []
        samples = []
        for (segment, observation) in zip(audited.playlist.segments, audited.segments) {
            defer { start += segment.duration }
            guard let bytes = observation.byteCount, segment.duration > 0 else {
                runs.append(nil)
                continue
            }
            let bits = Double(bytes) * 8
            runs.append((bits, segment.duration))
            samples.append(
                Sample(
                    startSeconds: start, durationSeconds: segment.duration,
                    bitsPerSecond: Int(saturating: bits / segment.duration))
            )
        }
        let loaded = runs.compactMap { $0 }
        guard !loaded.isEmpty else {
            peakBitsPerSecond = nil
            averageBitsPerSecond = nil
            return
        }
        let totalBits = loaded.reduce(0) { $0 + $1.bits }
        let totalSeconds = loaded.reduce(0) { $0 + $1.seconds }
        averageBitsPerSecond = Int(saturating: (totalBits / totalSeconds).rounded())
        var peak: Double?
        for first in runs.indices {
            var bits = 0.0, seconds = 0.0
            for index in first..<runs.count {
                guard let run = runs[index] else { break }
                bits += run.bits
                seconds += run.seconds
                if seconds > 1.5 * targetSeconds + 0.0005 { break }
                if seconds >= 0.5 * targetSeconds - 0.0005 { peak = max(peak ?? 0, bits / seconds) }
            }
        }
        peakBitsPerSecond = Int(saturating: (peak ?? loaded.map { $0.bits / $0.seconds }.max() ?? 0).rounded())
    }
}
