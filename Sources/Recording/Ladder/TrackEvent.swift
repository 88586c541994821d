import Packaging

/// Identifies one output track of a presentation.
enum TrackID: Hashable, Sendable {
    case video(Int)
    case audio
}

/// What a track's muxer reports back to the coordinator (shaka's `MuxerListener` events).
enum TrackEvent: Sendable {
    /// The encoder's CODECS string became known (from the SPS).
    case codecs(TrackID, String)
    /// Segment `index` of the track is on disk.
    case segment(TrackID, index: Int, SegmentRecord)
    /// Part `part` of segment `index` is on disk (LL-HLS).
    case part(TrackID, index: Int, part: Int, PartRecord, PartTiming)
    /// The track wrote its last segment.
    case finished(TrackID)
    /// The track failed; the message says why.
    case failed(TrackID, String)
}

/// When a part's last sample was taken and when its file was renamed into place, for `--timing-log`.
struct PartTiming: Sendable {
    /// Presentation time of the part's last sample.
    var lastSampleTime: Timestamp
    /// Wall clock at the rename, milliseconds since 1970.
    var renamedAtMilliseconds: Int64
}
