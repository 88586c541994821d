/// What one segment holds, measured by a probe: its tracks and their frames. Plain values: the rules read
/// these and never the bytes.
public struct SegmentFacts: Hashable, Sendable {
    public var tracks: [TrackFacts]
    /// fMP4: the track ids the init section declares (`tkhd`) and the ones the segment's fragments use
    /// (`tfhd`); empty for MPEG-TS.
    public var initTrackIDs: [Int]
    public var fragmentTrackIDs: [Int]

    public init(tracks: [TrackFacts], initTrackIDs: [Int] = [], fragmentTrackIDs: [Int] = []) {
        self.tracks = tracks
        self.initTrackIDs = initTrackIDs
        self.fragmentTrackIDs = fragmentTrackIDs
    }

    public var video: TrackFacts? { tracks.first { $0.kind == .video && !$0.frames.isEmpty } }
    public var audio: TrackFacts? { tracks.first { $0.kind == .audio && !$0.frames.isEmpty } }
    /// The track the timeline is measured on: video when there is video, else audio.
    public var timingTrack: TrackFacts? { video ?? audio ?? tracks.first { !$0.frames.isEmpty } }
}

public enum TrackKind: String, Hashable, Sendable {
    case video, audio, subtitle, data
}

/// One track (elementary stream) of a segment.
public struct TrackFacts: Hashable, Sendable {
    public var kind: TrackKind
    public var codec: CodecFamily
    /// The time base as seconds = ticks × numerator / denominator.
    public var timeBaseNumerator: Int
    public var timeBaseDenominator: Int
    /// From the SPS: in the init section's configuration record (fMP4) or the first in-band SPS (TS).
    public var video: VideoParameters?
    /// fMP4: the SPS of the init section's configuration record, and the distinct SPSs found in the segment.
    public var configurationSPS: [UInt8]?
    public var inBandSPS: [[UInt8]]
    /// `mp4a.40.x`'s x, from the ADTS header or the AudioSpecificConfig.
    public var audioObjectType: Int?
    public var sampleRate: Int?
    /// In decoding order.
    public var frames: [FrameFact]

    public init(
        kind: TrackKind, codec: CodecFamily, timeBaseNumerator: Int, timeBaseDenominator: Int,
        video: VideoParameters? = nil, configurationSPS: [UInt8]? = nil, inBandSPS: [[UInt8]] = [],
        audioObjectType: Int? = nil, sampleRate: Int? = nil, frames: [FrameFact] = []
    ) {
        self.kind = kind
        self.codec = codec
        self.timeBaseNumerator = timeBaseNumerator
        self.timeBaseDenominator = timeBaseDenominator
        self.video = video
        self.configurationSPS = configurationSPS
        self.inBandSPS = inBandSPS
        self.audioObjectType = audioObjectType
        self.sampleRate = sampleRate
        self.frames = frames
    }

    public func seconds(_ ticks: Int64) -> Double {
        Double(ticks) * Double(timeBaseNumerator) / Double(max(1, timeBaseDenominator))
    }

    /// The RFC 6381 string of what was found (`avc1.64001f`, `mp4a.40.2`), the codec name for formats the
    /// audit does not read, or nil for H.264/H.265 without a readable SPS.
    public var codecString: String? {
        if let video { return video.codecString }
        if codec.isVideoBitstream { return nil }
        if codec == .aac { return audioObjectType.map { "mp4a.40.\($0)" } }
        return codec.name
    }

    /// The smallest presentation time, in seconds.
    public var firstPresentationSeconds: Double? {
        frames.lazy.compactMap(\.presentationTime).min().map(seconds)
    }

    /// One frame's duration in seconds: the most common step between sorted presentation times, else the
    /// packets' own duration.
    public var frameDurationSeconds: Double? {
        let times = frames.compactMap(\.presentationTime).sorted()
        var counts: [Int64: Int] = [:]
        for (a, b) in zip(times, times.dropFirst()) where b > a {
            let (step, overflow) = b.subtractingReportingOverflow(a)
            if !overflow { counts[step, default: 0] += 1 }
        }
        if let step = counts.max(by: { $0.value < $1.value || ($0.value == $1.value && $0.key > $1.key) })?.key {
            return seconds(step)
        }
        if let duration = frames.first?.duration, duration > 0 { return seconds(duration) }
        return nil
    }

    /// Where the last frame ends (its presentation time plus one frame), in seconds.
    public var endPresentationSeconds: Double? {
        guard let last = frames.lazy.compactMap(\.presentationTime).max() else { return nil }
        return seconds(last) + (frameDurationSeconds ?? 0)
    }

    /// From the first frame's start to the last frame's end.
    public var durationSeconds: Double? {
        guard let first = firstPresentationSeconds, let end = endPresentationSeconds else { return nil }
        return end - first
    }

    public var framesPerSecond: Double? { frameDurationSeconds.map { $0 > 0 ? 1 / $0 : 0 } }
}

/// One demuxed packet (a video access unit or an audio frame).
public struct FrameFact: Hashable, Sendable {
    public var presentationTime: Int64?
    public var decodingTime: Int64?
    /// In time-base units; 0 when the container does not say.
    public var duration: Int64
    public var size: Int
    /// For H.264/H.265: the access unit holds an IDR NAL unit. Otherwise the demuxer's key flag.
    public var isIDR: Bool

    public init(presentationTime: Int64?, decodingTime: Int64?, duration: Int64 = 0, size: Int, isIDR: Bool) {
        self.presentationTime = presentationTime
        self.decodingTime = decodingTime
        self.duration = duration
        self.size = size
        self.isIDR = isIDR
    }
}
