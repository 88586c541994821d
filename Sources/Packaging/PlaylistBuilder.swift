import HLS
import Notation

/// Turns segment records into HLS playlists (shaka-packager's `MediaPlaylist`/`HlsNotifier` role):
/// media playlists, I-frame playlists and the multivariant playlist, each as an `HLS` model that
/// `PlaylistWriter` prints. The muxer never writes a playlist; this is the only place playlists come from.
///
///     let builder = PlaylistBuilder(mode: .vod, nominalSegmentDuration: .seconds(6))
///     let media = builder.mediaPlaylist(records, initSegmentURI: nil, isFinished: true)
///     let text = PlaylistBuilder.text(of: .media(media))
public struct PlaylistBuilder: Hashable, Sendable {
    /// How the media playlists grow.
    public enum Mode: Hashable, Sendable {
        /// A finished presentation: EXT-X-PLAYLIST-TYPE:VOD and EXT-X-ENDLIST.
        case vod
        /// A live recording that keeps every segment: EXT-X-PLAYLIST-TYPE:EVENT, ENDLIST when it ends.
        case event
        /// A live window of the last `segments` segments, with EXT-X-MEDIA-SEQUENCE.
        case slidingWindow(segments: Int)
    }

    public var mode: Mode
    /// The intended segment length: the target duration never drops below it, so it stays constant while
    /// a live playlist grows (RFC 8216bis §4.4.3.1 forbids changing it).
    public var nominalSegmentDuration: Timestamp

    public init(mode: Mode, nominalSegmentDuration: Timestamp) {
        self.mode = mode
        self.nominalSegmentDuration = nominalSegmentDuration
    }

    /// Group ids used in the multivariant playlist.
    public static let audioGroupID = "audio"
    public static let subtitlesGroupID = "subs"

    // MARK: Media playlists

    /// The media playlist of one track. `isFinished` adds EXT-X-ENDLIST (always for `.vod`). With `encryption`,
    /// EXT-X-KEY comes before the first segment of each key period and before the first segment listed, after
    /// EXT-X-MAP (the initialization section stays clear).
    public func mediaPlaylist(
        _ records: [SegmentRecord], initSegmentURI: String?, isFinished: Bool, encryption: SegmentEncryption? = nil
    ) -> MediaPlaylist {
        let (window, firstSequence) = windowed(records)
        var playlist = MediaPlaylist(
            version: initSegmentURI == nil ? 3 : 6,
            independentSegments: false,
            targetDuration: targetDuration(for: records),
            mediaSequence: mediaSequenceTag(firstSequence),
            playlistType: playlistType,
            endList: isFinished || mode == .vod)
        playlist.segments = zip(window.startIndex..<window.endIndex, window).map { index, record in
            var segment = Segment(
                uri: record.uri, duration: record.duration.seconds,
                map: index == window.startIndex ? initSegmentURI.map { Map(uri: $0) } : nil,
                programDateTime: record.programDateTimeMilliseconds.map {
                    DateTime(secondsSince1970: Double($0) / 1000)
                })
            Self.addKeys(encryption, to: &segment, segment: index, isFirst: index == window.startIndex)
            return segment
        }
        return playlist
    }

    /// Adds the EXT-X-KEY tags `encryption` puts before segment `index` (MAP first: the init section is clear).
    static func addKeys(_ encryption: SegmentEncryption?, to segment: inout Segment, segment index: Int, isFirst: Bool)
    {
        guard let encryption else { return }
        segment.keys = encryption.keys(beforeSegment: index, isFirstInPlaylist: isFirst)
        if segment.map != nil { segment.mapPrecedesKeys = true }
    }

    /// The I-frame (trick-play) playlist of one video track: each keyframe as a byte range of its segment, or as
    /// its own resource when it has one (an encrypted segment's keyframes), lasting until the next keyframe. With
    /// `encryption`, each I-frame carries the key of its segment as the track's media playlist does: a resource
    /// of its own is encrypted whole with its segment's key and IV.
    public func iFramePlaylist(
        _ records: [SegmentRecord], initSegmentURI: String?, isFinished: Bool, encryption: SegmentEncryption? = nil
    ) -> MediaPlaylist {
        let (window, firstSequence) = windowed(records)
        let frames = Self.iFrames(of: window)
        var playlist = MediaPlaylist(
            version: initSegmentURI == nil ? 4 : 5,
            targetDuration: targetDuration(for: records),
            mediaSequence: mediaSequenceTag(firstSequence),
            playlistType: playlistType,
            iFramesOnly: true,
            endList: isFinished || mode == .vod)
        var previousSegment: Int?
        playlist.segments = frames.enumerated().map { index, frame in
            var segment = Segment(
                uri: frame.uri, duration: frame.duration.seconds,
                byteRange: frame.range.resourceURI == nil
                    ? ByteRange(length: frame.range.length, offset: frame.range.offset) : nil,
                map: index == 0 ? initSegmentURI.map { Map(uri: $0) } : nil)
            if let encryption {
                // A key is declared where the key in effect changes: at the first I-frame, and at the first
                // I-frame of a segment whose key differs from the previous I-frame's segment's.
                let changes =
                    previousSegment.map {
                        encryption.keyIndex(forSegment: $0) != encryption.keyIndex(forSegment: frame.segmentIndex)
                    } ?? true
                if changes { Self.addKeys(encryption, to: &segment, segment: frame.segmentIndex, isFirst: true) }
            }
            previousSegment = frame.segmentIndex
            return segment
        }
        return playlist
    }

    /// One I-frame: where its bytes are (`uri`, and the range when they are part of the segment), how long it is
    /// shown in trick play, and which segment it belongs to.
    struct IFrame: Hashable {
        var uri: String
        var range: KeyframeRange
        var duration: Timestamp
        var segmentIndex: Int
    }

    static func iFrames<Records: Collection<SegmentRecord>>(of records: Records) -> [IFrame]
    where Records.Index == Int {
        var frames: [IFrame] = []
        for (index, record) in zip(Array(records.indices), records) {
            let segmentEnd = record.startTime + record.duration
            for (k, keyframe) in record.keyframes.enumerated() {
                let next = k + 1 < record.keyframes.count ? record.keyframes[k + 1].presentationTime : segmentEnd
                frames.append(
                    IFrame(
                        uri: keyframe.resourceURI ?? record.uri, range: keyframe,
                        duration: next - keyframe.presentationTime,
                        segmentIndex: index))
            }
        }
        return frames
    }

    // MARK: Multivariant playlist

    /// The multivariant playlist: one EXT-X-STREAM-INF per video rendition (highest first) with measured
    /// BANDWIDTH (peak segment bit rate of the rendition plus the audio and subtitles played with it,
    /// container overhead included) and AVERAGE-BANDWIDTH, CODECS, RESOLUTION, FRAME-RATE, the AUDIO and
    /// SUBTITLES groups and CLOSED-CAPTIONS=NONE; EXT-X-MEDIA for the audio and each subtitle language;
    /// one EXT-X-I-FRAME-STREAM-INF per rendition.
    public func multivariantPlaylist(_ presentation: Presentation) -> MultivariantPlaylist {
        var renditions: [Rendition] = []
        if let audio = presentation.audio {
            renditions.append(
                Rendition(
                    type: .audio, groupID: Self.audioGroupID, name: audio.name, uri: audio.playlistURI,
                    isDefault: true, autoselect: true, channels: String(audio.channels)))
        }
        for subtitle in presentation.subtitles {
            renditions.append(
                Rendition(
                    type: .subtitles, groupID: Self.subtitlesGroupID, name: subtitle.name, uri: subtitle.playlistURI,
                    language: subtitle.language, isDefault: false, autoselect: true))
        }
        let audioPeak = presentation.audio.map { Self.peakBitsPerSecond($0.segments) } ?? 0
        let audioAverage = presentation.audio.map { Self.averageBitsPerSecond($0.segments) } ?? 0
        let subtitlesPeak = presentation.subtitles.map { Self.peakBitsPerSecond($0.segments) }.max() ?? 0
        let subtitlesAverage = presentation.subtitles.map { Self.averageBitsPerSecond($0.segments) }.max() ?? 0
        let videos = presentation.videos.sorted {
            Self.peakBitsPerSecond($0.segments) > Self.peakBitsPerSecond($1.segments)
        }
        let variants = videos.map { video in
            Variant(
                uri: video.playlistURI,
                bandwidth: Self.roundedUp(Self.peakBitsPerSecond(video.segments) + audioPeak + subtitlesPeak),
                averageBandwidth: Self.roundedUp(
                    Self.averageBitsPerSecond(video.segments) + audioAverage + subtitlesAverage),
                codecs: ([video.codecs] + (presentation.audio.map { [$0.codecs] } ?? [])).joined(separator: ","),
                resolution: Resolution(width: video.width, height: video.height),
                frameRate: (video.frameRate * 1000).rounded() / 1000,
                audio: presentation.audio == nil ? nil : Self.audioGroupID,
                subtitles: presentation.subtitles.isEmpty ? nil : Self.subtitlesGroupID,
                closedCaptions: ClosedCaptionsReference.none)
        }
        let iFrameVariants = videos.map { video in
            let frames = Self.iFrames(of: video.segments)
            let peak = frames.map { Double($0.range.length) * 8 / max($0.duration.seconds, 0.001) }.max() ?? 0
            let bytes = frames.reduce(0) { $0 + $1.range.length }
            let seconds = frames.reduce(0.0) { $0 + $1.duration.seconds }
            return IFrameVariant(
                uri: video.iFramePlaylistURI, bandwidth: Self.roundedUp(peak),
                averageBandwidth: Self.roundedUp(seconds > 0 ? Double(bytes) * 8 / seconds : 0),
                codecs: video.codecs, resolution: Resolution(width: video.width, height: video.height))
        }
        // EXT-X-SESSION-KEY: the key of the first segment the media playlists list, so a client can fetch it
        // before the first media playlist arrives (RFC 8216bis §4.4.6.5).
        let firstListed = windowed(presentation.videos.first?.segments ?? []).1
        return MultivariantPlaylist(
            version: presentation.initSegmentURI == nil ? 4 : 6,
            independentSegments: true,
            sessionKeys: presentation.encryption.map { [$0.key(forKey: $0.keyIndex(forSegment: firstListed))] } ?? [],
            renditions: renditions, variants: variants, iFrameVariants: iFrameVariants)
    }

    // MARK: Measurements

    /// The highest bit rate of any one segment, bits per second.
    public static func peakBitsPerSecond(_ records: [SegmentRecord]) -> Double {
        records.map(\.bitsPerSecond).max() ?? 0
    }

    /// All bytes over all time, bits per second.
    public static func averageBitsPerSecond(_ records: [SegmentRecord]) -> Double {
        let seconds = records.reduce(0.0) { $0 + $1.duration.seconds }
        let bytes = records.reduce(0) { $0 + $1.byteSize }
        return seconds > 0 ? Double(bytes) * 8 / seconds : 0
    }

    private static func roundedUp(_ bitsPerSecond: Double) -> Int { Int(bitsPerSecond.rounded(.up)) }

    // MARK: Helpers

    /// EXT-X-TARGETDURATION: every EXTINF rounded to the nearest integer (RFC 8216bis §4.4.3.1), and
    /// never below the nominal segment duration.
    func targetDuration(for records: [SegmentRecord]) -> Int {
        let longest = records.map { $0.duration.seconds.rounded() }.max() ?? 0
        return max(1, Int(longest), Int(nominalSegmentDuration.seconds.rounded()))
    }

    var playlistType: PlaylistType? {
        switch mode {
        case .vod: .vod
        case .event: .event
        case .slidingWindow: nil
        }
    }

    func windowed(_ records: [SegmentRecord]) -> (ArraySlice<SegmentRecord>, Int) {
        guard case .slidingWindow(let count) = mode, records.count > count else { return (records[...], 0) }
        return (records.suffix(max(count, 1)), records.count - max(count, 1))
    }

    private func mediaSequenceTag(_ first: Int) -> Int? {
        if case .slidingWindow = mode { return first }
        return nil
    }
}

extension PlaylistBuilder {
    /// The text of a playlist, printed by the HLS module's writer (the one `inspect` round-trips).
    public static func text(of playlist: Playlist) -> String {
        PlaylistWriter(mode: .canonical).write(playlist)
    }
}
