import HLS

/// What `RequestHandler` makes of a request: an answer now, or a wait for a file to change.
public enum HandlerAnswer: Sendable {
    case response(HTTPResponse)
    /// Ask again when `Hold.watchedPath` changes; give up with `Hold.timeoutResponse` after `timeoutSeconds`.
    case hold(Hold)
}

/// A request that cannot be answered yet: a blocking playlist reload waiting for a part, or the request for a
/// hinted part that is not written yet (RFC 8216bis §6.2.5.2, §6.2.6).
public struct Hold: Sendable {
    /// The file, as a path below the served folder, whose next version may let the request be answered.
    public var watchedPath: String
    /// How long the request may wait in all.
    public var timeoutSeconds: Double
    /// The answer when the wait runs out (503 for a playlist, 404 for a part).
    public var timeoutResponse: HTTPResponse

    /// The longest wait: three of the longest target durations a player can use (RFC 8216bis §6.2.5.2).
    public static let maximumSeconds = 3 * Double(PlayerLimits.maximumTargetDurationSeconds)

    /// `timeoutSeconds` in whole milliseconds, within 0 ... `maximumSeconds` whatever it holds (NaN is 0).
    public var timeoutMilliseconds: Int64 {
        Int64(Int(saturating: (min(max(timeoutSeconds, 0), Self.maximumSeconds) * 1000).rounded(.up)))
    }
}
