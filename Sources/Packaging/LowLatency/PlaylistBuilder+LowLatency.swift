import HLS
import Notation

/// The live edge of one low-latency track: the segment being produced, its parts so far and the part that
/// comes next (the preload hint).
public struct LiveEdge: Hashable, Sendable {
    /// Media sequence number of the segment in progress.
    public var sequence: Int
    /// Its parts published so far (possibly none).
    public var parts: [PartRecord]
    /// Wall-clock time of its first sample, milliseconds since 1970 (EXT-X-PROGRAM-DATE-TIME).
    public var programDateTimeMilliseconds: Int64?
    /// The URI of the next part (EXT-X-PRELOAD-HINT:TYPE=PART).
    public var nextPartURI: String

    public init(sequence: Int, parts: [PartRecord], programDateTimeMilliseconds: Int64?, nextPartURI: String) {
        self.sequence = sequence
        self.parts = parts
        self.programDateTimeMilliseconds = programDateTimeMilliseconds
        self.nextPartURI = nextPartURI
    }
}

extension PlaylistBuilder {
    /// The protocol version of low-latency media playlists: EXT-X-SERVER-CONTROL's CAN-SKIP-UNTIL lets
    /// clients ask for delta updates, whose EXT-X-SKIP needs version 9.
    public static let lowLatencyVersion = 9

    /// The EXT-X-SERVER-CONTROL of a low-latency playlist: blocking reload, PART-HOLD-BACK of three part
    /// targets, HOLD-BACK of three and CAN-SKIP-UNTIL of six target durations.
    public static func serverControl(targetDuration: Int, partTarget: Timestamp) -> ServerControl {
        ServerControl(
            canSkipUntil: Double(6 * targetDuration), holdBack: Double(3 * targetDuration),
            partHoldBack: (partTarget * 3).seconds, canBlockReload: true)
    }

    /// A low-latency media playlist (RFC 8216bis §4.4.3.7–8, §4.4.4.9, §4.4.5.2–3): the finished segments
    /// (`records`, each carrying its parts), the parts of the segment in progress and one preload hint for the
    /// next part (`edge`; nil once the recording has ended: EXT-X-ENDLIST, no hint), an EXT-X-RENDITION-REPORT
    /// per other rendition. EXT-X-PART tags are listed only for segments within three target durations of the
    /// edge (`PartRetention`). With `encryption`, EXT-X-KEY comes before the first segment listed and before the
    /// first of each key period, the segment in progress included: its parts share its key and IV.
    public func lowLatencyMediaPlaylist(
        _ records: [SegmentRecord], edge: LiveEdge?, partTarget: Timestamp, initSegmentURI: String?,
        renditionReports: [RenditionReport], encryption: SegmentEncryption? = nil
    ) -> MediaPlaylist {
        let (window, firstSequence) = windowed(records)
        let target = targetDuration(for: records)
        var playlist = MediaPlaylist(
            version: Self.lowLatencyVersion, targetDuration: target, mediaSequence: firstSequence,
            playlistType: playlistType,
            partInf: PartInf(partTarget: partTarget.seconds),
            serverControl: Self.serverControl(targetDuration: target, partTarget: partTarget),
            endList: edge == nil)
        let edgeTime =
            edge?.parts.last.map { $0.startTime + $0.duration }
            ?? records.last.map { $0.startTime + $0.duration } ?? .zero
        let retention = PartRetention(targetDuration: target)
        playlist.segments = zip(window.startIndex..<window.endIndex, window).map { index, record in
            let listsParts =
                edge != nil
                && retention.listsParts(ofSegmentEndingAt: record.startTime + record.duration, edge: edgeTime)
            var segment = Segment(
                uri: record.uri, duration: record.duration.seconds,
                map: index == window.startIndex ? initSegmentURI.map { Map(uri: $0) } : nil,
                programDateTime: record.programDateTimeMilliseconds.map(Self.dateTime),
                parts: listsParts ? record.parts.map(Self.part) : [])
            Self.addKeys(encryption, to: &segment, segment: index, isFirst: index == window.startIndex)
            return segment
        }
        if let edge {
            if !edge.parts.isEmpty {
                var segment = Segment(
                    uri: "", duration: 0,
                    map: window.isEmpty ? initSegmentURI.map { Map(uri: $0) } : nil,
                    programDateTime: edge.programDateTimeMilliseconds.map(Self.dateTime),
                    parts: edge.parts.map(Self.part))
                Self.addKeys(encryption, to: &segment, segment: edge.sequence, isFirst: window.isEmpty)
                playlist.incompleteSegment = segment
            }
            playlist.preloadHints = [PreloadHint(type: .part, uri: edge.nextPartURI)]
        }
        playlist.renditionReports = renditionReports
        return playlist
    }

    /// The EXT-X-RENDITION-REPORT of a low-latency track as seen from another playlist (`uri` relative to that
    /// playlist): its last media sequence number and the index of its last part in that segment.
    public static func renditionReport(uri: String, records: [SegmentRecord], edge: LiveEdge?) -> RenditionReport {
        if let edge, !edge.parts.isEmpty {
            return RenditionReport(uri: uri, lastMediaSequenceNumber: edge.sequence, lastPart: edge.parts.count - 1)
        }
        guard let last = records.last else { return RenditionReport(uri: uri) }
        return RenditionReport(
            uri: uri, lastMediaSequenceNumber: records.count - 1,
            lastPart: last.parts.isEmpty ? nil : last.parts.count - 1)
    }

    static func part(_ record: PartRecord) -> PartialSegment {
        PartialSegment(uri: record.uri, duration: record.duration.seconds, independent: record.isIndependent)
    }

    static func dateTime(_ milliseconds: Int64) -> DateTime { DateTime(secondsSince1970: Double(milliseconds) / 1000) }
}
