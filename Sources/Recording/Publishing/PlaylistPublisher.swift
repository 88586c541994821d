import Foundation
import HLS
import Packaging
import Platform

/// Writes every playlist of a recording, and only it: fed by the records of the segments and parts the tracks
/// wrote (shaka's `HlsNotifier`), it decides when each playlist changes and what it lists, builds it with
/// `PlaylistBuilder` and writes it atomically (`AtomicFile`). A VOD ladder's playlists are written once, at the
/// end; a live one's after every segment that all tracks have finished; with LL-HLS parts, the video and audio
/// playlists after every part all tracks have written (``publish(finished:)``). It also deletes the files that
/// left a sliding window (segments, parts). Confined to the coordinator (the segmenter's lock).
final class PlaylistPublisher {
    /// A video rendition: where its playlists go and what the master says of it.
    struct VideoLayout {
        var name: String
        var width: Int
        var height: Int
    }

    /// Everything about the presentation that is known before the first segment.
    struct Layout {
        var root: String
        var videos: [VideoLayout]
        /// Frames per second of every rendition.
        var frameRate: Double
        /// Audio channels, or nil without audio.
        var audioChannels: Int?
        /// Whether the recording has WebVTT subtitles (`RecordingCaptions.languages`).
        var hasSubtitles: Bool
        /// `init.mp4` for fMP4, nil for MPEG-TS.
        var initSegmentURI: String?
        var encryption: SegmentEncryption?
    }

    let layout: Layout
    let builder: PlaylistBuilder
    private var records: [TrackID: [SegmentRecord]] = [:]
    private var subtitleRecords: [String: [SegmentRecord]] = [:]
    private var codecs: [TrackID: String] = [:]
    /// Whole segments listed by the playlists last written.
    private var publishedCount = 0
    /// Segments below this index were deleted after leaving a sliding window (`SegmentRetention`).
    private var deletedCount = 0
    /// With LL-HLS parts: the parts written and where their publication stands.
    var lowLatency: LowLatencyState?

    init(_ layout: Layout, builder: PlaylistBuilder, lowLatency: LowLatencyState? = nil) {
        self.layout = layout
        self.builder = builder
        self.lowLatency = lowLatency
        if layout.audioChannels != nil { codecs[.audio] = CodecString.aacLowComplexity }
        if layout.hasSubtitles {
            for language in RecordingCaptions.languages { subtitleRecords[language.tag] = [] }
        }
    }

    // MARK: Records in

    /// The CODECS string of a track became known.
    func setCodecs(_ string: String, of track: TrackID) { codecs[track] = string }

    /// Segment `index` of a video or audio track is on disk.
    func add(_ record: SegmentRecord, track: TrackID, index: Int) {
        var list = records[track, default: []]
        if list.count == index { list.append(record) } else if index < list.count { list[index] = record }
        records[track] = list
    }

    /// The next WebVTT segment of subtitle language `language` (an RFC 5646 tag) is on disk.
    func addSubtitle(_ record: SegmentRecord, language: String) {
        subtitleRecords[language, default: []].append(record)
    }

    /// The segments of a video or audio track so far.
    func records(of track: TrackID) -> [SegmentRecord] { records[track] ?? [] }

    // MARK: Publishing

    /// Segments finished in every track (video renditions, audio, subtitles).
    var completeSegmentCount: Int {
        var counts = layout.videos.indices.map { records[.video($0)]?.count ?? 0 }
        if layout.audioChannels != nil { counts.append(records[.audio]?.count ?? 0) }
        counts.append(contentsOf: subtitleRecords.values.map(\.count))
        return counts.min() ?? 0
    }

    /// Rewrites what the records so far change: nothing for VOD until the end; live, every playlist once all
    /// tracks finished another segment, and with parts the low-latency playlists once all tracks wrote another
    /// part. `finished` writes the final playlists (EXT-X-ENDLIST) of every segment complete in all tracks, and
    /// returns that presentation.
    @discardableResult
    func publish(finished: Bool) throws(SegmenterError) -> Presentation? {
        if finished {
            let count = completeSegmentCount
            try publish(count: count, finished: true)
            return presentation(count: count)
        }
        guard builder.mode != .vod else { return nil }
        let count = completeSegmentCount
        if count > publishedCount { try publish(count: count, finished: false) }
        try publishLowLatency(finished: false)
        return nil
    }

    private func presentation(count: Int) -> Presentation {
        let videos = layout.videos.enumerated().map { index, video in
            VideoTrack(
                playlistURI: video.name + "/index.m3u8", iFramePlaylistURI: video.name + "/iframes.m3u8",
                width: video.width, height: video.height, frameRate: layout.frameRate,
                codecs: codecs[.video(index)] ?? "avc1.640028",
                segments: Array((records[.video(index)] ?? []).prefix(count)))
        }
        let audioTrack = layout.audioChannels.map { channels in
            AudioTrack(
                playlistURI: "audio/index.m3u8", name: "Microphone", channels: channels,
                segments: Array((records[.audio] ?? []).prefix(count)))
        }
        let subtitles =
            layout.hasSubtitles
            ? RecordingCaptions.languages.map { language in
                SubtitleTrack(
                    playlistURI: "subs/\(language.tag)/index.m3u8", name: language.name, language: language.tag,
                    segments: Array((subtitleRecords[language.tag] ?? []).prefix(count)))
            } : []
        return Presentation(
            videos: videos, audio: audioTrack, subtitles: subtitles, initSegmentURI: layout.initSegmentURI,
            encryption: layout.encryption)
    }

    /// How many whole segments a low-latency live recording has before its master playlist appears. hls.js 1.6
    /// makes no blocking playlist reload while the last whole segment is number 0 (it tests that number for
    /// truth), so a player that starts then polls once per target duration and stalls; from the second segment
    /// on, it blocks on every part.
    static let lowLatencySegmentsBeforeMaster = 2

    /// Rewrites every media playlist, then the master (so the master never names a missing playlist); a
    /// low-latency live master only from its second whole segment on (``lowLatencySegmentsBeforeMaster``).
    private func publish(count: Int, finished: Bool) throws(SegmenterError) {
        let presentation = self.presentation(count: count)
        let initURI = presentation.initSegmentURI
        let keys = presentation.encryption
        func media(_ segments: [SegmentRecord]) -> Playlist {
            .media(builder.mediaPlaylist(segments, initSegmentURI: initURI, isFinished: finished, encryption: keys))
        }
        // With parts, the video and audio media playlists are the low-latency ones.
        try publishLowLatency(finished: finished)
        let wholeSegments = lowLatency == nil
        do {
            for video in presentation.videos {
                if wholeSegments { try write(media(video.segments), to: video.playlistURI) }
                let iFrames = builder.iFramePlaylist(
                    video.segments, initSegmentURI: initURI, isFinished: finished, encryption: keys)
                try write(.media(iFrames), to: video.iFramePlaylistURI)
            }
            if let audio = presentation.audio, wholeSegments { try write(media(audio.segments), to: audio.playlistURI) }
            for subtitle in presentation.subtitles {
                try write(
                    .media(builder.mediaPlaylist(subtitle.segments, initSegmentURI: nil, isFinished: finished)),
                    to: subtitle.playlistURI)
            }
            if finished || lowLatency == nil || count >= Self.lowLatencySegmentsBeforeMaster {
                try write(.multivariant(builder.multivariantPlaylist(presentation)), to: "master.m3u8")
            }
        } catch {
            throw .output(error.description)
        }
        publishedCount = count
        deleteExpiredSegments(presentation)
    }

    /// The one place a playlist reaches the disk: `uri` relative to the output folder, written under a temporary
    /// name and renamed, so a player never reads half a playlist.
    func write(_ playlist: Playlist, to uri: String) throws(AtomicFile.WriteError) {
        try AtomicFile.write(PlaylistBuilder.text(of: playlist), to: layout.root + "/" + uri)
    }

    /// Deletes the segment files of every track that left the sliding window longer ago than a player
    /// may still need them (`SegmentRetention`), with the I-frame resources of their own (encrypted segments);
    /// the playlists just written no longer name them.
    private func deleteExpiredSegments(_ presentation: Presentation) {
        let expired = SegmentRetention(mode: builder.mode).deletableSegments(publishedCount: publishedCount)
        guard expired.upperBound > deletedCount else { return }
        let indices = deletedCount..<expired.upperBound
        let root = layout.root + "/"
        var tracks: [(folder: String, segments: [SegmentRecord])] = presentation.videos.map {
            (root + Self.folder(of: $0.playlistURI), $0.segments)
        }
        if let audio = presentation.audio { tracks.append((root + Self.folder(of: audio.playlistURI), audio.segments)) }
        tracks += presentation.subtitles.map { (root + Self.folder(of: $0.playlistURI), $0.segments) }
        for (folder, segments) in tracks {
            for index in indices where index < segments.count {
                for uri in segments[index].fileURIs { AtomicFile.remove(folder + uri) }
            }
        }
        deletedCount = expired.upperBound
    }

    /// `720p/` for `720p/index.m3u8`: where a playlist's segments live, relative to the output folder.
    static func folder(of playlistURI: String) -> String {
        playlistURI.lastIndex(of: "/").map { String(playlistURI[...$0]) } ?? ""
    }
}
