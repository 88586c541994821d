/// One WebVTT cue: when it shows, how it is placed, and its text.
///
/// Times are whole milliseconds (WebVTT timestamps have millisecond precision), so they compare and
/// round-trip exactly; `startSeconds`/`endSeconds` are for display and arithmetic.
public struct WebVTTCue: Hashable, Sendable {
    /// The optional line before the timing line (e.g. `1` or `intro`).
    public var identifier: String?
    public var startMilliseconds: Int
    public var endMilliseconds: Int
    /// Cue settings in the order written (`align:start`, `line:0`, `position:10%`, `size:50%`, `vertical:rl`,
    /// `region:r1`), as name/value pairs; unknown settings are kept.
    public var settings: [Setting]
    /// The cue text: its lines joined with "\n", markup (`<b>`, `<v Speaker>`) kept as written.
    public var text: String

    public struct Setting: Hashable, Sendable {
        public var name: String
        public var value: String
        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    public init(
        identifier: String? = nil, startMilliseconds: Int, endMilliseconds: Int, settings: [Setting] = [],
        text: String
    ) {
        self.identifier = identifier
        self.startMilliseconds = startMilliseconds
        self.endMilliseconds = endMilliseconds
        self.settings = settings
        self.text = text
    }

    public var startSeconds: Double { Double(startMilliseconds) / 1000 }
    public var endSeconds: Double { Double(endMilliseconds) / 1000 }

    /// The value of the setting `name` (e.g. `"align"`), or nil.
    public func setting(_ name: String) -> String? { settings.first { $0.name == name }?.value }
}

/// The header's `X-TIMESTAMP-MAP=MPEGTS:<ticks>,LOCAL:<time>` (RFC 8216 §3.5): which 90 kHz MPEG-2 TS
/// timestamp corresponds to which cue time, so subtitles in segment N line up with the video.
public struct WebVTTTimestampMap: Hashable, Sendable {
    /// The MPEG-2 presentation timestamp in 90 kHz ticks.
    public var mpegTimestamp: Int64
    /// The cue time (in the WebVTT file's timeline) that maps to `mpegTimestamp`.
    public var localMilliseconds: Int

    public init(mpegTimestamp: Int64, localMilliseconds: Int) {
        self.mpegTimestamp = mpegTimestamp
        self.localMilliseconds = localMilliseconds
    }

    /// The offset to add to cue times to place them on the MPEG-TS timeline, in seconds.
    public var offsetSeconds: Double { Double(mpegTimestamp) / 90_000 - Double(localMilliseconds) / 1000 }
}

/// A parsed WebVTT file (or HLS subtitle segment): header, optional timestamp map, cues in file order.
public struct WebVTTDocument: Hashable, Sendable {
    /// Text after `WEBVTT` on the first line (usually empty).
    public var title: String
    public var timestampMap: WebVTTTimestampMap?
    public var cues: [WebVTTCue]

    public init(title: String = "", timestampMap: WebVTTTimestampMap? = nil, cues: [WebVTTCue] = []) {
        self.title = title
        self.timestampMap = timestampMap
        self.cues = cues
    }
}
