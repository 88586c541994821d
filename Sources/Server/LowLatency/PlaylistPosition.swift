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

    public init(_ playlist: MediaPlaylist) {
        let first = playlist.firstMediaSequenceNumber
        var counts: [Int: Int] = [:]
        for (offset, segment) in playlist.segments.enumerated() where !segment.parts.isEmpty {
            counts[first + offset] = segment.parts.count
        }
        self.init(
            lastCompleteSequence: first + playlist.segments.count - 1,
            partsInProgress: playlist.incompleteSegment?.parts.count ?? 0, partCounts: counts, ended: playlist.endList,
            targetDurationSeconds: Double(playlist.targetDuration ?? playlist.minimumTargetDuration),
            partTargetSeconds: playlist.partInf?.partTarget,
            canBlockReload: playlist.serverControl?.canBlockReload ?? false)
    }

    /// The sequence number of the segment in progress.
    public var sequenceInProgress: Int { lastCompleteSequence + 1 }

    /// How many parts past the last published one a request may ask for before it is refused (§6.2.5.2): three
    /// part targets' worth — 3 ÷ PART-TARGET when the target is under a second, else 3.
    public var advancePartLimit: Int {
        guard let target = partTargetSeconds, target > 0 else { return 3 }
        return target < 1 ? Int((3 / target).rounded(.up)) : 3
    }

    /// Parts a complete segment is expected to have (the most any listed segment has, else target ÷ part target).
    var partsPerSegment: Int {
        if let most = partCounts.values.max(), most > 0 { return most }
        guard let target = partTargetSeconds, target > 0 else { return 1 }
        return max(1, Int((targetDurationSeconds / target).rounded(.up)))
    }
}
