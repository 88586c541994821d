/// Random access into a looping trace: download time of a request issued at any instant, and the bits the
/// link carries up to any instant, without walking from the start. The latency is walked period by period (it
/// rarely crosses one); the transfer is found by binary search over the cumulative bits the trace can carry.
/// The simulator's `NetworkClock` follows the same model step by step; a shaped server link asks it directly.
public struct TraceWalker: Sendable {
    let periods: [NetworkTrace.Period]
    /// Start of each period within one pass, ms (count + 1 entries; the last is the pass length).
    let starts: [Double]
    /// Bits the trace carries from the start of the pass to the start of each period (count + 1 entries).
    let capacity: [Double]
    let pass: Double
    let passCapacity: Double

    public init(trace: NetworkTrace) {
        periods = trace.periods
        var starts: [Double] = [0]
        var capacity: [Double] = [0]
        for p in trace.periods {
            starts.append(starts.last! + p.durationMilliseconds)
            capacity.append(capacity.last! + p.durationMilliseconds * p.bandwidthKilobitsPerSecond)
        }
        self.starts = starts
        self.capacity = capacity
        pass = starts.last!
        passCapacity = capacity.last!
    }

    /// `time` (ms from the start of the trace) as whole passes and the offset into the next one.
    private func place(_ time: Double) -> (loops: Double, offset: Double) {
        let loops = (time / pass).rounded(.down)
        let offset = time - loops * pass
        return offset >= pass ? (loops + 1, 0) : (loops, offset)
    }

    /// The period holding `offset` (0 ≤ offset < pass).
    private func period(atOffset offset: Double) -> Int {
        var low = 0
        var high = periods.count - 1
        while low < high {
            let mid = (low + high + 1) / 2
            if starts[mid] <= offset { low = mid } else { high = mid - 1 }
        }
        return low
    }

    /// Latency + transfer time of `bits` requested at `time` ms into the session.
    public func downloadMilliseconds(at time: Double, bits: Double) -> Double {
        var crossings = 0
        return downloadMilliseconds(at: time, bits: bits, crossings: &crossings)
    }

    /// The same, adding to `crossings` the period boundaries the latency crossed (the only part whose cost
    /// grows with the trace: up to 60 s of latency over 1 ms periods), so a caller can bound its work.
    public func downloadMilliseconds(at time: Double, bits: Double, crossings: inout Int) -> Double {
        let offset = place(time).offset
        var index = period(atOffset: offset)
        var timeToNext = starts[index + 1] - offset
        // Latency, consumed at 1/latency per millisecond of the period in force.
        var latencyTotal = 0.0
        var units = 1.0
        while units > 0 {
            let latency = periods[index].latencyMilliseconds
            let t = units * latency
            if t <= timeToNext {
                latencyTotal += t
                timeToNext -= t
                units = 0
            } else {
                latencyTotal += timeToNext
                units -= timeToNext / latency
                crossings += 1
                index = index + 1 == periods.count ? 0 : index + 1
                timeToNext = periods[index].durationMilliseconds
            }
        }
        guard bits > 0 else { return latencyTotal }
        // Transfer: the first instant at which the cumulative capacity reaches what was carried before + bits.
        let startOffset = starts[index + 1] - timeToNext
        let target = capacity[index] + (startOffset - starts[index]) * periods[index].bandwidthKilobitsPerSecond + bits
        let end = instant(reaching: target)
        return latencyTotal + (end - startOffset)
    }

    // MARK: What the link carries

    /// Bits the link carries from the start of the trace to `time` ms (time ≥ 0), the loops included.
    public func bitsCarried(until time: Double) -> Double {
        let (loops, offset) = place(time)
        let index = period(atOffset: offset)
        return loops * passCapacity + capacity[index]
            + (offset - starts[index]) * periods[index].bandwidthKilobitsPerSecond
    }

    /// The first instant (ms from the start of the trace) by which the link has carried `bits` in all (bits ≥
    /// 0): the inverse of `bitsCarried(until:)`.
    public func time(whenCarried bits: Double) -> Double {
        bits > 0 ? instant(reaching: bits) : 0
    }

    /// The instant (ms from the start of a pass) at which the bits carried since that start reach `target`
    /// (> 0): the smallest period whose cumulative capacity reaches it, found by binary search, in the right pass.
    private func instant(reaching target: Double) -> Double {
        var passes = (target / passCapacity).rounded(.down)
        var rest = target - passes * passCapacity
        if rest <= 0 {
            passes -= 1
            rest += passCapacity
        }
        // Smallest j with capacity[j + 1] >= rest.
        var low = 0
        var high = periods.count - 1
        while low < high {
            let mid = (low + high) / 2
            if capacity[mid + 1] >= rest { high = mid } else { low = mid + 1 }
        }
        return passes * pass + starts[low] + (rest - capacity[low]) / periods[low].bandwidthKilobitsPerSecond
    }

    /// The period in force at `time` ms (looped): its bandwidth and latency.
    public func period(at time: Double) -> NetworkTrace.Period {
        periods[period(atOffset: place(time).offset)]
    }
}
