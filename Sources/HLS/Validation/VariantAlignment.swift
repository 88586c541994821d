import JSON

/// A media playlist that a multivariant playlist references, loaded by the caller (the `HLS` module does no
/// I/O), with the reference that named it.
public struct ReferencedPlaylist: Sendable {
    public enum Reference: Sendable {
        case variant(Variant)
        case iFrameVariant(IFrameVariant)
        case rendition(Rendition)
    }

    public var reference: Reference
    public var playlist: MediaPlaylist

    public init(reference: Reference, playlist: MediaPlaylist) {
        self.reference = reference
        self.playlist = playlist
    }

    /// The URI as written in the multivariant playlist.
    public var uri: String {
        switch reference {
        case .variant(let variant): variant.uri
        case .iFrameVariant(let variant): variant.uri
        case .rendition(let rendition): rendition.uri ?? ""
        }
    }

    var source: SourceSpan? {
        switch reference {
        case .variant(let variant): variant.source
        case .iFrameVariant(let variant): variant.source
        case .rendition(let rendition): rendition.source
        }
    }

    /// Subtitle renditions and I-frame playlists may have their own target duration (RFC 8216bis §6.2.4).
    var sharesTargetDuration: Bool {
        switch reference {
        case .variant: true
        case .iFrameVariant: false
        case .rendition(let rendition): rendition.type != .subtitles
        }
    }

    var isIFrames: Bool {
        if case .iFrameVariant = reference { return true }
        return playlist.iFramesOnly
    }
}

/// Cross-playlist checks over the media playlists of one multivariant playlist: do the variants line up?
///
/// - Target durations: "Each Media Playlist in a Multivariant Playlist MUST have the same target duration",
///   except subtitle renditions and I-frame playlists (RFC 8216bis §6.2.4) — an error.
/// - Discontinuities: segments with the same media sequence number must have the same discontinuity
///   sequence number in every variant, or players switching variants land in the wrong content — an error.
/// - Ended (VOD) variants with different segment counts, or totals more than one target duration apart —
///   warnings (Apple HLS Authoring Specification: segments aligned across variants).
///
/// Diagnostics point at the referencing tag in the multivariant playlist.
public enum VariantAlignment {
    public static let targetDurationMismatch: DiagnosticCode = "variants.target-duration-mismatch"
    public static let discontinuityMismatch: DiagnosticCode = "variants.discontinuity-mismatch"
    public static let segmentCountMismatch: DiagnosticCode = "variants.segment-count-mismatch"
    public static let durationMismatch: DiagnosticCode = "variants.duration-mismatch"
    static let reference = "RFC 8216bis §6.2.4"

    public static func check(_ loaded: [ReferencedPlaylist]) -> [Diagnostic] {
        var found: [Diagnostic] = []
        let timeline = loaded.filter { !$0.isIFrames }
        func location(_ item: ReferencedPlaylist) -> SourceLocation { item.source?.location ?? .start }

        let sharing = timeline.filter { $0.sharesTargetDuration && $0.playlist.targetDuration != nil }
        if let first = sharing.first, let target = first.playlist.targetDuration {
            for other in sharing.dropFirst() where other.playlist.targetDuration != target {
                found.append(
                    .error(
                        targetDurationMismatch,
                        "\(other.uri) has EXT-X-TARGETDURATION \(other.playlist.targetDuration ?? 0), \(first.uri) has \(target)",
                        at: location(other), reference))
            }
        }

        if let first = timeline.first {
            let firstMap = discontinuityNumbers(first.playlist)
            for other in timeline.dropFirst() {
                let otherMap = discontinuityNumbers(other.playlist)
                let disagreement = otherMap.keys.sorted().first { msn in
                    firstMap[msn].map { $0 != otherMap[msn] } ?? false
                }
                if let msn = disagreement {
                    found.append(
                        .error(
                            discontinuityMismatch,
                            "segment \(msn) of \(other.uri) is in discontinuity sequence \(otherMap[msn] ?? 0), "
                                + "in \(first.uri) it is in \(firstMap[msn] ?? 0)",
                            at: location(other), reference))
                }
            }
        }

        let ended = timeline.filter {
            if case .variant = $0.reference { return $0.playlist.endList }
            return false
        }
        if let first = ended.first {
            let firstStats = first.playlist.statistics
            let tolerance = Double(first.playlist.targetDuration ?? 0)
            for other in ended.dropFirst() {
                let stats = other.playlist.statistics
                if stats.segmentCount != firstStats.segmentCount {
                    found.append(
                        .warning(
                            segmentCountMismatch,
                            "\(other.uri) has \(stats.segmentCount) segments, \(first.uri) has \(firstStats.segmentCount)",
                            at: location(other), SpecReference.appleAuthoring))
                } else if abs(stats.totalSeconds - firstStats.totalSeconds) > tolerance {
                    found.append(
                        .warning(
                            durationMismatch,
                            "\(other.uri) lasts \(plainNumber(stats.totalSeconds)) s, \(first.uri) "
                                + "\(plainNumber(firstStats.totalSeconds)) s",
                            at: location(other), SpecReference.appleAuthoring))
                }
            }
        }
        return found.sorted { $0.location < $1.location }
    }

    /// Media sequence number → discontinuity sequence number, for every segment.
    static func discontinuityNumbers(_ playlist: MediaPlaylist) -> [Int: Int] {
        var table: [Int: Int] = [:]
        var discontinuity = playlist.discontinuitySequence ?? 0
        let skipped = playlist.skip?.skippedSegments ?? 0
        for (index, segment) in playlist.segments.enumerated() {
            if segment.discontinuity { discontinuity &+= 1 }
            table[playlist.firstMediaSequenceNumber &+ skipped &+ index] = discontinuity
        }
        return table
    }
}
