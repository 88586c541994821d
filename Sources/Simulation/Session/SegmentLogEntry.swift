/// One downloaded segment in a session's log (`SessionResult.segments`).
public struct SegmentLogEntry: Sendable, Hashable, Codable {
    /// Media segment number.
    public var index: Int
    /// When the request was issued, seconds of virtual time.
    public var requestTimeSeconds: Double
    /// Idle time spent before the request because the buffer was full, seconds.
    public var idleBeforeSeconds: Double
    public var variant: Int
    public var bytes: Int
    /// Request to last byte, seconds (latency included).
    public var downloadSeconds: Double
    public var latencySeconds: Double
    /// Bits over transfer time (latency excluded), kbit/s.
    public var throughputKilobitsPerSecond: Double
    /// Buffer level when the segment arrived (after adding it), seconds.
    public var bufferAfterSeconds: Double
    /// Stall caused while waiting for this segment, seconds.
    public var stallSeconds: Double
    /// The selector's reason.
    public var reason: String

    public init(
        index: Int, requestTimeSeconds: Double, idleBeforeSeconds: Double, variant: Int, bytes: Int,
        downloadSeconds: Double, latencySeconds: Double, throughputKilobitsPerSecond: Double,
        bufferAfterSeconds: Double, stallSeconds: Double, reason: String
    ) {
        self.index = index
        self.requestTimeSeconds = requestTimeSeconds
        self.idleBeforeSeconds = idleBeforeSeconds
        self.variant = variant
        self.bytes = bytes
        self.downloadSeconds = downloadSeconds
        self.latencySeconds = latencySeconds
        self.throughputKilobitsPerSecond = throughputKilobitsPerSecond
        self.bufferAfterSeconds = bufferAfterSeconds
        self.stallSeconds = stallSeconds
        self.reason = reason
    }
}
