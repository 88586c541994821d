import HLS

/// The input with the lookups every rule family needs: which playlist plays a variant, its audio, its
/// subtitles; each playlist's measurements computed once.
struct AuditContext {
    let input: AuditInput
    let bitrates: [String: BitrateMeasurement]

    init(_ input: AuditInput) {
        self.input = input
        var bitrates: [String: BitrateMeasurement] = [:]
        for audited in input.playlists { bitrates[audited.uri] = BitrateMeasurement(audited) }
        self.bitrates = bitrates
    }

    var variants: [(Variant, AuditedPlaylist)] {
        input.playlists.compactMap { audited in
            if case .variant(let variant) = audited.role { return (variant, audited) }
            return nil
        }
    }

    var iFrameVariants: [(IFrameVariant, AuditedPlaylist)] {
        input.playlists.compactMap { audited in
            if case .iFrameVariant(let variant) = audited.role { return (variant, audited) }
            return nil
        }
    }

    /// Playlists holding media segments (variants, renditions, a standalone playlist), not I-frame playlists.
    var mediaPlaylists: [AuditedPlaylist] {
        input.playlists.filter { audited in
            if case .iFrameVariant = audited.role { return false }
            return !audited.playlist.iFramesOnly
        }
    }

    /// The audio renditions a variant plays with that were loaded (those with a URI).
    func audioPlaylists(of variant: Variant) -> [AuditedPlaylist] {
        guard let group = variant.audio else { return [] }
        return input.playlists.filter { audited in
            if case .rendition(let rendition) = audited.role {
                return rendition.type == .audio && rendition.groupID == group
            }
            return false
        }
    }

    /// The first presentation time of the media segment with media sequence number `sequence` in the first
    /// variant (of those playing `group`) that measured it: where subtitles are mapped onto.
    func mediaStart(forSubtitleGroup group: String, sequence: Int) -> Double? {
        for (variant, audited) in variants where variant.subtitles == group {
            let (index, overflow) = sequence.subtractingReportingOverflow(audited.playlist.firstMediaSequenceNumber)
            guard !overflow, audited.segments.indices.contains(index) else { continue }
            if let first = audited.segments[index].facts?.timingTrack?.firstPresentationSeconds { return first }
        }
        return nil
    }
}

extension AuditedPlaylist {
    /// Measured segments with their index.
    var measured: [(index: Int, segment: Segment, facts: SegmentFacts)] {
        zip(playlist.segments, segments).enumerated().compactMap { index, pair in
            pair.1.facts.map { (index, pair.0, $0) }
        }
    }
}
