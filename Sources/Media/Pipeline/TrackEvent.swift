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
    /// The track wrote its last segment.
    case finished(TrackID)
    /// The track failed; the message says why.
    case failed(TrackID, String)
}
