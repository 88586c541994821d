/// Every rule `inspect --deep` checks: a stable code, its severity, where the rule comes from, and one line on
/// how to fix what breaks it. Codes never change once published.
public enum FindingCode: String, CaseIterable, Hashable, Sendable {
    case peakAboveDeclared = "bandwidth.peak-above-declared"
    case peakBelowDeclared = "bandwidth.peak-below-declared"
    case averageMismatch = "bandwidth.average-mismatch"
    case averageMissing = "bandwidth.average-missing"
    case peakOverTwiceAverage = "bandwidth.peak-over-twice-average"
    case durationMismatch = "extinf.duration-mismatch"
    case notStartingWithIDR = "segment.not-starting-with-idr"
    case segmentsNotAligned = "variants.segments-not-aligned"
    case timelineGap = "timeline.gap"
    case timelineOverlap = "timeline.overlap"
    case frameRateChanged = "frame-rate.changed-without-discontinuity"
    case codecsMismatch = "codecs.mismatch"
    case resolutionMismatch = "resolution.mismatch"
    case frameRateMismatch = "frame-rate.mismatch"
    case idrInterval = "idr.interval"
    case timestampMapMissing = "webvtt.timestamp-map-missing"
    case timestampMapWrong = "webvtt.timestamp-map-wrong"
    case iFrameRangeNotIDR = "iframes.range-not-idr"
    case initMismatch = "fmp4.init-mismatch"
    case presentationAfterDecode = "fmp4.presentation-after-decode"
    case keyUnusable = "key.unusable"
    case segmentUnreadable = "segment.unreadable"

    public var severity: FindingSeverity {
        switch self {
        case .peakOverTwiceAverage, .segmentsNotAligned, .idrInterval, .presentationAfterDecode: .should
        default: .must
        }
    }

    /// The rule, as RFC 8216bis section or Apple HLS Authoring Specification item.
    public var rule: String {
        switch self {
        case .peakAboveDeclared, .peakBelowDeclared: "Apple HLS Authoring 1.27/1.29, RFC 8216bis §4.4.6.2"
        case .averageMismatch: "Apple HLS Authoring 1.26"
        case .averageMissing: "Apple HLS Authoring 9.14"
        case .peakOverTwiceAverage: "Apple HLS Authoring 1.30"
        case .durationMismatch: "Apple HLS Authoring 8.1, RFC 8216bis §4.4.4.1"
        case .notStartingWithIDR: "Apple HLS Authoring 7.4, RFC 8216bis §4.4.2.1"
        case .segmentsNotAligned: "Apple HLS Authoring 8.22, 8.15"
        case .timelineGap, .timelineOverlap: "RFC 8216bis §3, §4.4.4.3; Apple HLS Authoring 8.13"
        case .frameRateChanged: "Apple HLS Authoring 8.14"
        case .codecsMismatch: "RFC 8216bis §4.4.6.2 (CODECS)"
        case .resolutionMismatch: "RFC 8216bis §4.4.6.2 (RESOLUTION)"
        case .frameRateMismatch: "RFC 8216bis §4.4.6.2 (FRAME-RATE)"
        case .idrInterval: "Apple HLS Authoring 1.13"
        case .timestampMapMissing, .timestampMapWrong: "RFC 8216bis §3.1.4; Apple HLS Authoring 5.3"
        case .iFrameRangeNotIDR: "RFC 8216bis §4.4.3.6"
        case .initMismatch: "RFC 8216bis §3.1.2, §4.4.4.5; Apple HLS Authoring 8.20"
        case .presentationAfterDecode: "CMAF (ISO/IEC 23000-19) fragments; RFC 8216bis §3.1.2"
        case .keyUnusable: "RFC 8216bis §5.2, §4.4.4.4"
        case .segmentUnreadable: "RFC 8216bis §3"
        }
    }

    /// One line on how to fix it.
    public var fix: String {
        switch self {
        case .peakAboveDeclared, .peakBelowDeclared:
            "measure BANDWIDTH from the segments (the peak of any 0.5-1.5 x target duration run, audio included); do not write bitrate x 1.1"
        case .averageMismatch: "set AVERAGE-BANDWIDTH to all segment bits / playlist duration, audio included"
        case .averageMissing: "add AVERAGE-BANDWIDTH to every EXT-X-STREAM-INF"
        case .peakOverTwiceAverage: "cap the encoder's peak rate (VBV maxrate/bufsize) to at most twice the average"
        case .durationMismatch: "write each EXTINF from the segment's real media duration"
        case .notStartingWithIDR: "force a keyframe (IDR) at every segment boundary, or cut segments only at IDRs"
        case .segmentsNotAligned: "use the same keyframe times (fixed GOP, forced keyframes) in every variant"
        case .timelineGap: "list every segment, or mark the break with EXT-X-DISCONTINUITY"
        case .timelineOverlap: "remove the duplicated media, or mark the break with EXT-X-DISCONTINUITY"
        case .frameRateChanged: "put EXT-X-DISCONTINUITY before the segment whose frame rate changes"
        case .codecsMismatch: "write CODECS from the streams' own parameters (SPS profile/level, AAC object type)"
        case .resolutionMismatch: "write RESOLUTION as the cropped picture size of the SPS"
        case .frameRateMismatch: "write FRAME-RATE as the frame rate of the video, rounded to 3 decimals"
        case .idrInterval: "set the encoder's keyframe interval to 2 s or less"
        case .timestampMapMissing:
            "add X-TIMESTAMP-MAP=MPEGTS:<first video PTS>,LOCAL:00:00:00.000 to every WebVTT segment"
        case .timestampMapWrong: "set X-TIMESTAMP-MAP's MPEGTS to the media's first PTS (90 kHz) for LOCAL's cue time"
        case .iFrameRangeNotIDR: "write each I-frame byte range over exactly one whole IDR access unit of the segment"
        case .initMismatch:
            "write the init section that the segments were muxed with (same track ids, parameter sets and timescale)"
        case .presentationAfterDecode:
            "write video with negative composition offsets (trun version 1), so each fragment is presented from its tfdt"
        case .keyUnusable: "serve the key URI as exactly 16 bytes, reachable with the same headers as the media"
        case .segmentUnreadable: "make every listed segment loadable and complete"
        }
    }
}

public enum FindingSeverity: String, Hashable, Sendable, Comparable {
    case must, should

    public static func < (lhs: FindingSeverity, rhs: FindingSeverity) -> Bool { lhs == .must && rhs == .should }
}

/// One problem found: which rule, where (playlist, segment), and the measured and declared values.
public struct Finding: Hashable, Sendable {
    public var code: FindingCode
    /// The playlist's URI as the multivariant playlist names it (or the location given).
    public var playlist: String
    /// The segment's URI as written, when the finding is about one segment.
    public var segment: String?
    public var message: String
    public var measured: String?
    public var declared: String?

    public init(
        _ code: FindingCode, playlist: String, segment: String? = nil, message: String, measured: String? = nil,
        declared: String? = nil
    ) {
        self.code = code
        self.playlist = playlist
        self.segment = segment
        self.message = message
        self.measured = measured
        self.declared = declared
    }

    public var severity: FindingSeverity { code.severity }
}
