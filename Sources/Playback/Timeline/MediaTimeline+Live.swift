/// Where a player starts and how often it reloads (RFC 8216bis 6.3.3 and 6.3.4).
extension MediaTimeline {
    /// The media time at which playback of this playlist starts.
    ///
    /// EXT-X-START wins (a negative offset counts from the end); otherwise a live playlist starts HOLD-BACK
    /// seconds (default three target durations) before its live edge, and a VOD playlist at its first segment.
    /// The result always lies within the listed segments.
    public var playbackStartSeconds: Double {
        guard !segments.isEmpty else { return startSeconds }
        let latest = max(startSeconds, endSeconds - TimelineSegment.boundaryTolerance * 2)
        if let offset = startOffsetSeconds {
            let target = offset >= 0 ? startSeconds + offset : endSeconds + offset
            return min(max(target, startSeconds), latest)
        }
        guard isLive else { return startSeconds }
        let holdBack = holdBackSeconds ?? 3 * targetDurationSeconds
        return min(max(endSeconds - holdBack, startSeconds), latest)
    }

    /// Seconds to wait before reloading a live playlist: one target duration after a change, half of it when
    /// the reload brought nothing new (RFC 8216bis 6.3.4).
    public func reloadDelaySeconds(changed: Bool) -> Double {
        let target = max(targetDurationSeconds, 0.1)
        return changed ? target : target / 2
    }
}
