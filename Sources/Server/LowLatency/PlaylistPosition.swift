import HLS

/// How far a live media playlist has got: its last complete segment, the parts of the segment in progress,
/// and what its server control allows. A pure summary of one version of the playlist.
public struct PlaylistPosition: Sendable, Hashable {
    /// The media sequence number of the last complete segment (one less than the first when there is none).
    public var lastCompleteSequence: Int
    /// Parts published so far of the segment after it (the one in progress).
    public var partsInProgress: Int
    /// The number of parts each complete segment lists, by media sequence number (old segments whose parts were
    /// dropped list none).
    public var partCounts: [Int: Int]
    public var ended: Bool
    public var targetDurationSeconds: Double
    /// PART-TARGET, nil without EXT-X-PART-INF.
    public var partTargetSeconds: Double?
    public var canBlockReload: Bool

    public init(
        lastCompleteSequence: Int, partsInProgress: Int, partCounts: [Int: Int] = [:], ended: Bool,
        targetDurationSeconds: Double, partTargetSeconds: Double?, canBlockReload: Bool
    ) {
        self.lastCompleteSequence = lastCompleteSequence
        self.partsInProgress = partsInProgress
        self.partCounts = partCounts
        self.ended = ended
        self.targetDurationSeconds = targetDurationSeconds
        self.partTargetSeconds = partTargetSeconds
        self.canBlockReload = canBlockReload
    }

    /// The position of `playlist`; nil when a blocking reload could name a media sequence number past what a
    /// player counts (``PlayerLimits/maximumSequenceNumber``) or the numbers are negative: such a playlist is
    /// served as it is, without blocking reloads. Target durations past what a player's timer waits
    /// (``PlayerLimits/maximumTargetDurationSeconds``) count as that, so holds and cache lifetimes stay finite.
    public init?(_ playlist: MediaPlaylist) {
        let first = playlist.firstMediaSequenceNumber
        guard first >= 0, let furthest = playlist.furthestMediaSequenceNumber,
            furthest <= PlayerLimits.maximumSequenceNumber
        else { return nil }
        var counts: [Int: Int] = [:]
        for (offset, segment) in playlist.segments.enumerated() where !segment.parts.isEmpty {
            counts[first + offset] = segment.parts.count
        }
        let longest = Double(PlayerLimits.maximumTargetDurationSeconds)
        let target = Double(playlist.targetDuration ?? playlist.minimumTargetDuration)
        self.init(
            lastCompleteSequence: first + playlist.segments.count - 1,
            partsInProgress: playlist.incompleteSegment?.parts.count ?? 0, partCounts: counts, ended: playlist.endList,
            targetDurationSeconds: min(max(0, target), longest),
            partTargetSeconds: playlist.partInf.map { min(max(0, $0.partTarget), longest) },
            canBlockReload: playlist.serverControl?.canBlockReload ?? false)
    }

    /// The sequence number of the segment in progress.
    public var sequenceInProgress: Int { lastCompleteSequence + 1 }

    /// Parts a request may be ahead of the next to be published before it is refused, or parts a segment is
    /// expected to have, at most: more than a playlist of the largest size the server reads can list, and small
    /// enough that counting in parts never overflows.
    static let maximumPartCount = 1 << 32

    /// How many parts past the last published one a request may ask for before it is refused (§6.2.5.2): three
    /// part targets' worth — 3 ÷ PART-TARGET when the target is under a second, else 3.
    public var advancePartLimit: Int {
        guard let target = partTargetSeconds, target > 0 else { return 3 }
        return target < 1 ? min(Int(saturating: (3 / target).rounded(.up)), Self.maximumPartCount) : 3
    }

    /// Parts a complete segment is expected to have (the most any listed segment has, else target ÷ part target).
    var partsPerSegment: Int {
        if let most = partCounts.values.max(), most > 0 { return min(most, Self.maximumPartCount) }
        guard let target = partTargetSeconds, target > 0 else { return 1 }
        return max(1, min(Int(saturating: (targetDurationSeconds / target).rounded(.up)), Self.maximumPartCount))
    }
}
