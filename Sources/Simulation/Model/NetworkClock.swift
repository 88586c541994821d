/// Virtual time walking a looping `NetworkTrace`: Sabre's NetworkModel.
///
/// A request first waits one latency (consumed at 1/latency per millisecond, so it crosses period
/// boundaries), then its bits flow at the piecewise-constant bandwidth of the periods that follow. Idle time
/// advances the trace. All in milliseconds and bits (kbit/s = bits/ms), like Sabre, so numbers compare.
///
/// A transfer still running at `horizonMilliseconds` stops there, unfinished (`isPastHorizon`): with a trace
/// whose periods are at least 1 ms, no request walks more than a bounded number of periods, however slow the
/// network.
public struct NetworkClock: Sendable {
    public let trace: NetworkTrace
    private var index: Int
    /// Milliseconds left in the current period.
    private var timeToNext: Double
    /// Virtual time since the start of the session, milliseconds.
    public private(set) var nowMilliseconds: Double = 0
    /// Where transfers stop: the session bound of `SimulationLimits`.
    public var horizonMilliseconds = SimulationLimits.maximumSessionSeconds * 1000

    /// True once a transfer was cut at the horizon.
    public var isPastHorizon: Bool { nowMilliseconds >= horizonMilliseconds }

    public init(trace: NetworkTrace) {
        self.trace = trace
        index = 0
        timeToNext = trace.periods[0].durationMilliseconds
    }

    /// The clock at `milliseconds` into the session (the trace looped), as if it had idled there.
    public init(trace: NetworkTrace, at milliseconds: Double) {
        self.init(trace: trace)
        let pass = trace.durationMilliseconds
        let loops = (milliseconds / pass).rounded(.down)
        if loops > 0 { nowMilliseconds = loops * pass }
        idle(milliseconds: milliseconds - nowMilliseconds)
    }

    private mutating func nextPeriod() {
        index += 1
        if index == trace.periods.count { index = 0 }
        timeToNext = trace.periods[index].durationMilliseconds
    }

    /// Waits one request latency; returns its duration, ms.
    public mutating func waitLatency() -> Double {
        var units = 1.0
        var total = 0.0
        while units > 0 {
            let latency = trace.periods[index].latencyMilliseconds
            let time = units * latency
            if time <= timeToNext {
                total += time
                nowMilliseconds += time
                timeToNext -= time
                units = 0
            } else {
                total += timeToNext
                nowMilliseconds += timeToNext
                units -= timeToNext / latency
                nextPeriod()
                if isPastHorizon { return total }
            }
        }
        return total
    }

    /// Transfers `bits` after the latency; returns the transfer time, ms.
    public mutating func transfer(bits: Double) -> Double {
        var size = bits
        var total = 0.0
        while size > 0 {
            let bandwidth = trace.periods[index].bandwidthKilobitsPerSecond
            if size <= timeToNext * bandwidth {
                let time = size / bandwidth
                total += time
                nowMilliseconds += time
                timeToNext -= time
                size = 0
            } else {
                total += timeToNext
                nowMilliseconds += timeToNext
                size -= timeToNext * bandwidth
                nextPeriod()
                if isPastHorizon { return total }
            }
        }
        return total
    }

    /// Lets `milliseconds` of a transfer pass; returns the bits delivered in that time, at most `bits` (the
    /// progress of a download, whose latency was waited first).
    public mutating func transfer(milliseconds: Double, upToBits bits: Double) -> Double {
        var time = milliseconds
        var sent = 0.0
        while time > 0, sent < bits, !isPastHorizon {
            let bandwidth = trace.periods[index].bandwidthKilobitsPerSecond
            let span = min(time, timeToNext)
            let chunk = min(span * bandwidth, bits - sent)
            let used = chunk < span * bandwidth ? chunk / bandwidth : span
            sent += chunk
            time -= used
            nowMilliseconds += used
            timeToNext -= used
            if timeToNext <= 0 { nextPeriod() }
        }
        return sent
    }

    /// One whole request: latency, then the transfer.
    public mutating func download(bits: Double) -> Download {
        let latency = waitLatency()
        let transfer = transfer(bits: bits)
        return Download(latencyMilliseconds: latency, transferMilliseconds: transfer)
    }

    /// Lets `milliseconds` pass without traffic.
    public mutating func idle(milliseconds: Double) {
        var time = milliseconds
        guard time > 0 else { return }
        while time > timeToNext {
            time -= timeToNext
            nowMilliseconds += timeToNext
            nextPeriod()
        }
        timeToNext -= time
        nowMilliseconds += time
    }

    /// Timing of one finished request.
    public struct Download: Sendable, Hashable {
        public var latencyMilliseconds: Double
        public var transferMilliseconds: Double
        public var totalMilliseconds: Double { latencyMilliseconds + transferMilliseconds }
    }
}
