/// Placing a playlist on the media-time axis of another: a live reload of the same rendition, or another
/// variant the player switches to. Segment indexes are never used for this; a switch loads the segment of the
/// new variant that holds the media time where the buffer ends.
extension MediaTimeline {
    /// How `aligned(_:sameRendition:)` matched two timelines, in order of preference.
    public enum AlignmentMethod: String, Sendable, Hashable {
        /// A media sequence number listed in both (a reload of the same rendition).
        case mediaSequence
        /// EXT-X-PROGRAM-DATE-TIME: the same wall-clock instant is the same media time.
        case programDateTime
        /// The start of a discontinuity sequence visible in both playlists.
        case discontinuitySequence
        /// Both are complete (EXT-X-ENDLIST) presentations: cumulative segment time from the first segment.
        case cumulativeTime
        /// No common point: placed by the media sequence distance, one target duration per missing segment.
        case mediaSequenceEstimate
    }

    /// Returns `other` shifted onto this timeline's media-time axis, and how it was matched.
    ///
    /// - Parameter sameRendition: true for a reload of the playlist this timeline came from (its media sequence
    ///   numbers then name the same segments); false for another variant, matched by program date time,
    ///   discontinuity sequence, then cumulative time.
    public func aligned(_ other: MediaTimeline, sameRendition: Bool) -> (timeline: MediaTimeline, method: AlignmentMethod) {
        guard !segments.isEmpty, !other.segments.isEmpty else {
            return (other.shifted(by: startSeconds - other.startSeconds), .cumulativeTime)
        }
        if sameRendition, let offset = mediaSequenceOffset(to: other) {
            return (other.shifted(by: offset), .mediaSequence)
        }
        if let offset = programDateTimeOffset(to: other) {
            return (other.shifted(by: offset), .programDateTime)
        }
        if !sameRendition {
            if let offset = discontinuityOffset(to: other) {
                return (other.shifted(by: offset), .discontinuitySequence)
            }
            if hasEndList && other.hasEndList {
                return (other.shifted(by: startSeconds - other.startSeconds), .cumulativeTime)
            }
            if let offset = mediaSequenceOffset(to: other) {
                return (other.shifted(by: offset), .mediaSequence)
            }
        }
        return (other.shifted(by: mediaSequenceEstimateOffset(to: other)), .mediaSequenceEstimate)
    }

    /// The offset that gives a segment listed in both the same start time.
    private func mediaSequenceOffset(to other: MediaTimeline) -> Double? {
        for candidate in other.segments {
            if let index = segmentIndex(mediaSequence: candidate.mediaSequence) {
                return segments[index].startSeconds - candidate.startSeconds
            }
        }
        return nil
    }

    /// The offset that maps the first dated segment of `other` to the media time of the same instant here.
    private func programDateTimeOffset(to other: MediaTimeline) -> Double? {
        guard let dated = other.segments.first(where: { $0.programDateTimeSeconds != nil }),
            let instant = dated.programDateTimeSeconds
        else { return nil }
        var best: (segment: TimelineSegment, distance: Double)?
        for segment in segments {
            guard let date = segment.programDateTimeSeconds else { continue }
            let distance = instant < date ? date - instant : max(0, instant - (date + segment.durationSeconds))
            if best == nil || distance < best!.distance { best = (segment, distance) }
        }
        guard let best, let date = best.segment.programDateTimeSeconds else { return nil }
        let mediaTime = best.segment.startSeconds + (instant - date)
        return mediaTime - dated.startSeconds
    }

    /// The offset that lines up the first discontinuity boundary visible inside both playlists.
    private func discontinuityOffset(to other: MediaTimeline) -> Double? {
        let ours = discontinuityStarts()
        for (sequence, otherStart) in other.discontinuityStarts() {
            if let start = ours.first(where: { $0.sequence == sequence })?.start { return start - otherStart }
        }
        return nil
    }

    /// Media times where a discontinuity sequence begins, for boundaries inside the listed segments.
    private func discontinuityStarts() -> [(sequence: Int, start: Double)] {
        var starts: [(sequence: Int, start: Double)] = []
        for index in segments.indices.dropFirst()
        where segments[index].discontinuitySequence != segments[index - 1].discontinuitySequence {
            starts.append((segments[index].discontinuitySequence, segments[index].startSeconds))
        }
        return starts
    }

    /// No common segment: `other` lies before or after this window, one target duration per missing number.
    private func mediaSequenceEstimateOffset(to other: MediaTimeline) -> Double {
        let ourFirst = segments[0], ourLast = segments[segments.count - 1]
        let theirFirst = other.segments[0], theirLast = other.segments[other.segments.count - 1]
        let step = max(targetDurationSeconds, other.targetDurationSeconds)
        if theirLast.mediaSequence < ourFirst.mediaSequence {
            let missing = Double(ourFirst.mediaSequence - theirLast.mediaSequence - 1)
            return (ourFirst.startSeconds - missing * step) - theirLast.endSeconds
        }
        // After this window (or numbering restarted): continue from our end.
        let missing = Double(max(0, theirFirst.mediaSequence - ourLast.mediaSequence - 1))
        return (ourLast.endSeconds + missing * step) - theirFirst.startSeconds
    }
}
