/// Everything a multivariant playlist describes, as the segmenter measured it: one entry per video
/// rendition, the audio rendition and the subtitle languages, each with its segment records.
public struct Presentation: Hashable, Sendable {
    public var videos: [VideoTrack]
    public var audio: AudioTrack?
    public var subtitles: [SubtitleTrack]
    /// The media initialization section name (`init.mp4`) inside each track's folder for fMP4; nil for MPEG-TS.
    public var initSegmentURI: String?
    /// How the video and audio segments are encrypted (subtitles stay clear); nil when they are not.
    public var encryption: SegmentEncryption?

    public init(
        videos: [VideoTrack], audio: AudioTrack? = nil, subtitles: [SubtitleTrack] = [], initSegmentURI: String? = nil,
        encryption: SegmentEncryption? = nil
    ) {
        self.videos = videos
        self.audio = audio
        self.subtitles = subtitles
        self.initSegmentURI = initSegmentURI
        self.encryption = encryption
    }
}

/// One video rendition of the ladder.
public struct VideoTrack: Hashable, Sendable {
    /// Its media playlist, relative to the multivariant playlist (e.g. `720p/index.m3u8`).
    public var playlistURI: String
    /// Its I-frame playlist, relative to the multivariant playlist (e.g. `720p/iframes.m3u8`).
    public var iFramePlaylistURI: String
    public var width: Int
    public var height: Int
    /// Frames per second (printed with 3 decimals).
    public var frameRate: Double
    /// `avc1.PPCCLL` from the encoder's SPS.
    public var codecs: String
    public var segments: [SegmentRecord]

    public init(
        playlistURI: String, iFramePlaylistURI: String, width: Int, height: Int, frameRate: Double, codecs: String,
        segments: [SegmentRecord]
    ) {
        self.playlistURI = playlistURI
        self.iFramePlaylistURI = iFramePlaylistURI
        self.width = width
        self.height = height
        self.frameRate = frameRate
        self.codecs = codecs
        self.segments = segments
    }
}

/// The audio rendition (one group, one rendition).
public struct AudioTrack: Hashable, Sendable {
    public var playlistURI: String
    public var name: String
    public var codecs: String
    public var channels: Int
    public var segments: [SegmentRecord]

    public init(
        playlistURI: String, name: String, codecs: String = CodecString.aacLowComplexity, channels: Int,
        segments: [SegmentRecord]
    ) {
        self.playlistURI = playlistURI
        self.name = name
        self.codecs = codecs
        self.channels = channels
        self.segments = segments
    }
}

/// One WebVTT subtitle language.
public struct SubtitleTrack: Hashable, Sendable {
    public var playlistURI: String
    /// The language's own name, e.g. `한국어`, `English`.
    public var name: String
    /// RFC 5646 tag, e.g. `ko`, `en`.
    public var language: String
    public var segments: [SegmentRecord]

    public init(playlistURI: String, name: String, language: String, segments: [SegmentRecord]) {
        self.playlistURI = playlistURI
        self.name = name
        self.language = language
        self.segments = segments
    }
}
