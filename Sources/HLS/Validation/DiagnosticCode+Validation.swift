/// Codes reported by the validator's rules (see ``PlaylistValidator``). Stable once published.
extension DiagnosticCode {
    public static let targetDurationMissing: DiagnosticCode = "target-duration.missing"
    public static let extinfExceedsTargetDuration: DiagnosticCode = "extinf.exceeds-target-duration"
    public static let mediaSequenceAfterFirstSegment: DiagnosticCode = "media-sequence.after-first-segment"
    public static let discontinuitySequenceAfterFirstSegment: DiagnosticCode =
        "discontinuity-sequence.after-first-segment"
    public static let negativeNumber: DiagnosticCode = "value.negative"
    public static let byteRangeOffsetUnresolvable: DiagnosticCode = "byterange.offset-unresolvable"
    public static let dateRangeStartDateMissing: DiagnosticCode = "daterange.start-date-missing"
    public static let tagDuplicate: DiagnosticCode = "tag.duplicate"
    public static let versionTooLow: DiagnosticCode = "version.too-low"
    public static let partInfMissing: DiagnosticCode = "part-inf.missing"
    public static let partExceedsPartTarget: DiagnosticCode = "part.exceeds-part-target"
    public static let canSkipUntilTooSmall: DiagnosticCode = "server-control.can-skip-until-too-small"
    public static let holdBackTooSmall: DiagnosticCode = "server-control.hold-back-too-small"
    public static let partHoldBackTooSmall: DiagnosticCode = "server-control.part-hold-back-too-small"
    public static let partHoldBackMissing: DiagnosticCode = "server-control.part-hold-back-missing"
    public static let groupUndefined: DiagnosticCode = "stream-inf.group-undefined"
    public static let renditionNameDuplicate: DiagnosticCode = "media.name-duplicate"
    public static let renditionDefaultDuplicate: DiagnosticCode = "media.default-duplicate"
    public static let renditionURIMissing = missingAttribute("URI", in: .media)
    public static let closedCaptionsURI: DiagnosticCode = "media.closed-captions-uri"
    public static let instreamIDMissing = missingAttribute("INSTREAM-ID", in: .media)
    public static let instreamIDInvalid: DiagnosticCode = "media.instream-id-invalid"
    public static let codecsMissing: DiagnosticCode = "stream-inf.codecs-missing"
    public static let resolutionMissing: DiagnosticCode = "stream-inf.resolution-missing"
    public static let frameRateMissing: DiagnosticCode = "stream-inf.frame-rate-missing"
    public static let averageBandwidthMissing: DiagnosticCode = "stream-inf.average-bandwidth-missing"
    public static let independentSegmentsMissing: DiagnosticCode = "independent-segments.missing"
    public static let keyNoneWithAttributes: DiagnosticCode = "key.none-with-attributes"
    public static let keyIVLength: DiagnosticCode = "key.iv-length"
    public static let sessionKeyMethodNone: DiagnosticCode = "session-key.method-none"
}

/// Spec sections cited by the validator.
extension SpecReference {
    public static let targetDuration = "RFC 8216bis §4.4.3.1"
    public static let mediaSequence = "RFC 8216bis §4.4.3.2"
    public static let discontinuitySequence = "RFC 8216bis §4.4.3.3"
    public static let partInf = "RFC 8216bis §4.4.3.7"
    public static let serverControl = "RFC 8216bis §4.4.3.8"
    public static let part = "RFC 8216bis §4.4.4.9"
    public static let dateRange = "RFC 8216bis §4.4.5.1"
    public static let media = "RFC 8216bis §4.4.6.1"
    public static let versionCompatibility = "RFC 8216bis §7"
    public static let playlistKinds = "RFC 8216bis §4.1"
    public static let appleAuthoring = "Apple HLS Authoring Specification"
}
