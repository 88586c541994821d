/// Stable codes of the problems the WebVTT parser reports (the part in brackets when printed).
public enum WebVTTRule: String, Sendable, CaseIterable {
    case signatureMissing = "webvtt.signature-missing"
    case headerBlankLineMissing = "webvtt.header-blank-line-missing"
    case timestampMapMalformed = "webvtt.timestamp-map-malformed"
    case cueTimingMissing = "webvtt.cue-timing-missing"
    case cueTimingMalformed = "webvtt.cue-timing-malformed"
    case cueTimestampMalformed = "webvtt.cue-timestamp-malformed"
    case cueSettingMalformed = "webvtt.cue-setting-malformed"
    case cueEndBeforeStart = "webvtt.cue-end-before-start"

    /// Where the rule comes from.
    var specReference: String {
        switch self {
        case .timestampMapMalformed: "RFC 8216bis §3.1.4"
        default: "W3C WebVTT §4.1"
        }
    }
}
