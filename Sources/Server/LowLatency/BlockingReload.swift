/// Whether a blocking playlist request (`_HLS_msn=M[&_HLS_part=N]`, RFC 8216bis §6.2.5.2) can be answered by one
/// version of the playlist, must wait for a later one, or must be refused. Pure; the server asks again each
/// time the playlist changes, so the answer it sends is the first version that satisfies the request — never
/// early, never stale.
public enum BlockingReload {
    public enum Decision: Sendable, Hashable {
        /// This version satisfies the request (or the directives do not apply): answer with it.
        case answer
        /// Hold the request until the playlist changes.
        case wait
        /// 400 at once.
        case refuse(RequestRefusal)
    }

    public static func decide(_ directives: DeliveryDirectives, _ position: PlaylistPosition) -> Decision {
        // A finished playlist, or one whose server does not offer blocking reloads, is answered as it is.
        guard let sequence = directives.mediaSequence, !position.ended, position.canBlockReload else { return .answer }
        if sequence > position.sequenceInProgress + 1 {
            return .refuse(.badRequest("_HLS_msn=\(sequence) is more than two segments past the playlist's last"))
        }
        guard let part = directives.part else {
            return sequence <= position.lastCompleteSequence ? .answer : .wait
        }
        // Where the request is, counted in parts from the next part to be published (0 = that part).
        let (wantedSequence, wantedPart) = normalised(sequence: sequence, part: part, position)
        let ahead: Int
        if wantedSequence <= position.lastCompleteSequence {
            return .answer
        } else if wantedSequence == position.sequenceInProgress {
            ahead = wantedPart - position.partsInProgress
        } else {
            ahead =
                (wantedSequence - position.sequenceInProgress) * position.partsPerSegment + wantedPart
                - position.partsInProgress
        }
        if ahead < 0 { return .answer }
        if ahead >= position.advancePartLimit {
            return .refuse(
                .badRequest(
                    "_HLS_part=\(part) is more than \(position.advancePartLimit) parts past the playlist's last"))
        }
        return .wait
    }

    /// A part index past the last part of a complete segment means part 0 of the segment after it.
    private static func normalised(sequence: Int, part: Int, _ position: PlaylistPosition) -> (Int, Int) {
        if sequence <= position.lastCompleteSequence, let count = position.partCounts[sequence], part >= count {
            return (sequence + 1, 0)
        }
        return (sequence, part)
    }
}
