import HLS

extension MediaTimeline {
    /// The timeline of a parsed media playlist, starting at media time 0 (the machine moves reloads and other
    /// variants onto its own axis).
    ///
    /// - Media sequence numbers count from EXT-X-MEDIA-SEQUENCE, discontinuity sequence numbers from
    ///   EXT-X-DISCONTINUITY-SEQUENCE plus each EXT-X-DISCONTINUITY.
    /// - EXT-X-PROGRAM-DATE-TIME is carried forward by segment durations until the next discontinuity.
    /// - An EXT-X-BYTERANGE without an offset starts after the previous segment's range of the same URI.
    /// - A negative or non-finite EXTINF counts as 0 seconds. URIs stay as written (relative to the playlist).
    /// - Not handled: LL-HLS parts and preload hints (whole segments only), the segment being produced.
    public init(_ playlist: HLS.MediaPlaylist) {
        var segments: [TimelineSegment] = []
        segments.reserveCapacity(playlist.segments.count)
        var start = 0.0
        var discontinuity = playlist.discontinuitySequence ?? 0
        var date: Double?
        var previousRange: (uri: String, end: Int)?
        for (offset, segment) in playlist.segments.enumerated() {
            let duration = segment.duration.isFinite ? max(0, segment.duration) : 0
            if segment.discontinuity {
                discontinuity += 1
                date = nil
            }
            if let explicit = segment.programDateTime { date = explicit.secondsSince1970 }
            var range: SegmentByteRange?
            if let byteRange = segment.byteRange {
                let implied = previousRange?.uri == segment.uri ? previousRange?.end ?? 0 : 0
                range = SegmentByteRange(offsetBytes: byteRange.offset ?? implied, lengthBytes: byteRange.length)
                previousRange = (segment.uri, (byteRange.offset ?? implied) + byteRange.length)
            } else {
                previousRange = nil
            }
            segments.append(
                TimelineSegment(
                    mediaSequence: playlist.firstMediaSequenceNumber + offset, discontinuitySequence: discontinuity,
                    isDiscontinuity: segment.discontinuity, startSeconds: start, durationSeconds: duration,
                    programDateTimeSeconds: date, byteRange: range, uri: segment.uri))
            start += duration
            date = date.map { $0 + duration }
        }
        let longest = segments.map(\.durationSeconds).max() ?? 0
        self.init(
            segments: segments, targetDurationSeconds: playlist.targetDuration.map(Double.init) ?? longest.rounded(),
            hasEndList: playlist.endList || playlist.playlistType == .vod,
            startOffsetSeconds: playlist.start?.timeOffset, holdBackSeconds: playlist.serverControl?.holdBack)
    }
}

extension StreamDescription {
    /// The ladder (EXT-X-STREAM-INF, sorted by bandwidth) and the audio and subtitle renditions of a parsed
    /// multivariant playlist. I-frame variants, closed captions and video renditions are left out; URIs stay as
    /// written (relative to the multivariant playlist).
    public init(_ playlist: HLS.MultivariantPlaylist) {
        let variants = playlist.variants.map { variant in
            Variant(
                info: VariantInfo(
                    index: 0, bandwidthBitsPerSecond: variant.bandwidth,
                    averageBandwidthBitsPerSecond: variant.averageBandwidth, width: variant.resolution?.width,
                    height: variant.resolution?.height, frameRate: variant.frameRate, codecs: variant.codecList),
                uri: variant.uri, audioGroupID: variant.audio, subtitlesGroupID: variant.subtitles)
        }
        let renditions = playlist.renditions.compactMap { rendition -> Rendition? in
            let kind: Rendition.Kind
            switch rendition.type {
            case .audio: kind = .audio
            case .subtitles: kind = .subtitles
            default: return nil
            }
            return Rendition(
                kind: kind, groupID: rendition.groupID, name: rendition.name, language: rendition.language,
                uri: rendition.uri, isDefault: rendition.isDefault)
        }
        self.init(variants: variants, renditions: renditions)
    }
}

extension PlaybackMachine.LoadedPlaylist {
    /// The machine's view of a parsed playlist, for a runner answering `Effect.loadPlaylist`.
    public init(_ playlist: HLS.Playlist) {
        switch playlist {
        case .multivariant(let multivariant): self = .multivariant(StreamDescription(multivariant))
        case .media(let media): self = .media(MediaTimeline(media))
        }
    }
}
