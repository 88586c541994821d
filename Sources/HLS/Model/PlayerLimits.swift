/// Numbers the grammar of RFC 8216bis allows but players cannot use. A decimal-integer may reach 2⁶⁴ − 1
/// (§4.2), yet the players most pages embed (hls.js, Shaka Player, video.js) are JavaScript: they count media
/// sequence numbers in doubles, exact only up to 2⁵³ − 1, and wait for reloads with timers that hold at most
/// 2³¹ − 1 milliseconds (a longer `setTimeout` fires at once). The validator reports values past these limits
/// as errors, and `filterz serve` does not offer blocking reloads on a playlist that passes them.
public enum PlayerLimits {
    /// The largest media or discontinuity sequence number a JavaScript player counts exactly:
    /// `Number.MAX_SAFE_INTEGER`, 2⁵³ − 1.
    public static let maximumSequenceNumber = 9_007_199_254_740_991
    /// The longest EXT-X-TARGETDURATION or PART-TARGET a player can wait for, in seconds: 2³¹ − 1 ms, about
    /// 24.8 days (a player reloads a live playlist after one target duration, §6.3.4).
    public static let maximumTargetDurationSeconds = 2_147_483
}

extension MediaPlaylist {
    /// The furthest media sequence number a client may name for this playlist: the segment after the one in
    /// progress, as far as a blocking reload may ask (`_HLS_msn`, RFC 8216bis §6.2.5.2). Counts the segments a
    /// delta update skipped. Nil when it does not fit in `Int`.
    public var furthestMediaSequenceNumber: Int? {
        var number = firstMediaSequenceNumber
        for step in [skip?.skippedSegments ?? 0, segments.count, 1] {
            let (sum, overflow) = number.addingReportingOverflow(step)
            guard !overflow else { return nil }
            number = sum
        }
        return number
    }
}

extension Int {
    /// `value` rounded towards zero, saturating at `Int.min` and `Int.max`; NaN is 0. Every conversion from a
    /// `Double` read from a file or a request goes through this: `Int(_:)` traps outside the range.
    public init(saturating value: Double) {
        if value.isNaN {
            self = 0
        } else if value >= 0x1p63 {  // the first Double past Int.max
            self = .max
        } else if value <= -0x1p63 {
            self = .min
        } else {
            self = Int(value)
        }
    }
}
