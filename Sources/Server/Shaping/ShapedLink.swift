import Traces

/// One client's link, as a value: a token bucket whose tokens are the bits the trace carries (`TraceWalker`),
/// so what it lets through over any stretch of time is what the trace allows then, give or take one bucket.
/// Asked by the event loop before each send (`grant`), it answers with how many bytes may go now or when to ask
/// again; `now` is monotonic milliseconds and time on the link runs from `origin`, the client's first request.
///
/// The bucket holds at most `burstMilliseconds` of the rate in force (at least `minimumBurstBytes`): capacity a
/// link does not use is lost, as on a real one, and a loop that wakes a little late still sends what the link
/// carried meanwhile. A sender that is refused waits until `sliceMilliseconds` of the rate (at least
/// `minimumSliceBytes`, at most what it wants) are there, so a fast link costs a few dozen wake-ups a second.
struct ShapedLink: Sendable {
    enum Grant: Equatable, Sendable {
        /// Send at most this many bytes now.
        case send(Int)
        /// Nothing may go before this instant (monotonic milliseconds).
        case wait(until: Int64)
    }

    static let burstMilliseconds = 40.0
    static let minimumBurstBytes = 1500.0
    static let sliceMilliseconds = 5.0
    static let minimumSliceBytes = 1000.0

    let walker: TraceWalker
    /// Monotonic milliseconds at which the trace starts for this link.
    let origin: Int64
    private var tokens: Double
    /// Bits the trace had carried when the bucket was last filled.
    private var carriedAtFill = 0.0

    init(walker: TraceWalker, origin: Int64) {
        self.walker = walker
        self.origin = origin
        tokens = Self.minimumSliceBytes * 8
    }

    /// Time on the link at `now`, ms.
    func linkTime(_ now: Int64) -> Double { Double(max(0, now - origin)) }

    /// The latency in force at `now`, whole milliseconds (rounded up): what an answer's first byte waits.
    func latencyMilliseconds(at now: Int64) -> Int64 {
        Int64(walker.period(at: linkTime(now)).latencyMilliseconds.rounded(.up))
    }

    /// How much of `wanted` bytes may go now, or when to ask again.
    mutating func grant(wanting wanted: Int64, now: Int64) -> Grant {
        guard wanted > 0 else { return .send(0) }
        let time = linkTime(now)
        fill(at: time)
        let rate = walker.period(at: time).bandwidthKilobitsPerSecond
        let slice = min(Double(wanted) * 8, max(Self.minimumSliceBytes * 8, rate * Self.sliceMilliseconds))
        if tokens >= slice {
            let bytes = Int(min(Double(wanted), (tokens / 8).rounded(.down)))
            tokens -= Double(bytes) * 8
            return .send(bytes)
        }
        let ready = walker.time(whenCarried: carriedAtFill + slice - tokens)
        return .wait(until: origin + max(Int64(ready.rounded(.up)), Int64(time) + 1))
    }

    /// Gives back the part of a grant the socket did not take (its buffer was full): the link did not carry it.
    mutating func refund(_ bytes: Int) {
        tokens += Double(bytes) * 8
    }

    private mutating func fill(at time: Double) {
        let carried = walker.bitsCarried(until: time)
        let rate = walker.period(at: time).bandwidthKilobitsPerSecond
        let cap = max(Self.minimumBurstBytes * 8, rate * Self.burstMilliseconds)
        tokens = min(cap, tokens + carried - carriedAtFill)
        carriedAtFill = carried
    }
}
