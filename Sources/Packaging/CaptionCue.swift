import HLS

/// One subtitle cue: text shown from `start` to `end` (recording time, 0 = the first video frame).
public struct CaptionCue: Hashable, Sendable {
    public var start: Timestamp
    public var end: Timestamp
    public var text: String

    public init(start: Timestamp, end: Timestamp, text: String) {
        self.start = start
        self.end = end
        self.text = text
    }
}

/// The subtitles a recording carries: the preset's name and the running time, one cue per second, in
/// each supported language.
public struct RecordingCaptions: Hashable, Sendable {
    /// A subtitle language: tag, the language's own name, and how a cue reads.
    public struct Language: Hashable, Sendable {
        public var tag: String
        public var name: String
        /// The cue line for a preset and a running time (`mm:ss`).
        var line: @Sendable (String, String) -> String

        public static func == (lhs: Language, rhs: Language) -> Bool { lhs.tag == rhs.tag }
        public func hash(into hasher: inout Hasher) { hasher.combine(tag) }

        public static let korean = Language(tag: "ko", name: "한국어", line: { "필터 \($0) · 녹화 \($1)" })
        public static let english = Language(tag: "en", name: "English", line: { "Filter \($0) · recording \($1)" })
    }

    /// Korean first (the app's home market), then English.
    public static let languages: [Language] = [.korean, .english]

    public var presetName: String

    public init(presetName: String) { self.presetName = presetName }

    /// The cues of `language` that overlap `[start, end)`: one per whole second, each [k, k+1) s.
    /// With `isLast`, the final cue ends at `end` (the end of the recording) instead of the next second.
    public func cues(_ language: Language, from start: Timestamp, to end: Timestamp, isLast: Bool) -> [CaptionCue] {
        guard end > start else { return [] }
        let first = max(0, Int64(start.seconds.rounded(.down)))
        var cues: [CaptionCue] = []
        var second = first
        while Timestamp.seconds(second) < end {
            var cueEnd = Timestamp.seconds(second + 1)
            if isLast, cueEnd > end { cueEnd = end }
            let minutes = second / 60, seconds = second % 60
            let running = (minutes < 10 ? "0" : "") + "\(minutes):" + (seconds < 10 ? "0" : "") + "\(seconds)"
            if cueEnd > start {
                cues.append(CaptionCue(start: .seconds(second), end: cueEnd, text: language.line(presetName, running)))
            }
            second += 1
        }
        return cues
    }
}

/// A WebVTT segment for HLS (RFC 8216bis §3.1.4): the header, the `X-TIMESTAMP-MAP` that ties cue time 0
/// to the video's first presentation time (in 90 kHz MPEG-2 ticks), and the cues.
public enum WebVTTSegment {
    /// - Parameter mpegTimestamp: the first video frame's presentation time in 90 kHz ticks, as it
    ///   appears in the media segments (ffmpeg's own hls muxer leaves this out, and players then show
    ///   cues early by the muxer's start offset).
    public static func text(cues: [CaptionCue], mpegTimestamp: Int64) -> String {
        var text = "WEBVTT\nX-TIMESTAMP-MAP=MPEGTS:\(mpegTimestamp),LOCAL:00:00:00.000\n"
        for cue in cues {
            text += "\n\(timestamp(cue.start)) --> \(timestamp(cue.end))\n\(cue.text)\n"
        }
        return text
    }

    /// `hh:mm:ss.ttt`.
    static func timestamp(_ time: Timestamp) -> String {
        WebVTTTimestamp.format(Int(max(0, time.converted(to: 1000).value)))
    }
}
