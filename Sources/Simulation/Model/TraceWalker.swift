/// Random access into a looping trace: download time of a request issued at any instant, without walking
/// from the start. The latency is walked period by period (it rarely crosses one); the transfer is found by
/// binary search over the cumulative bits the trace can carry. Same model as `NetworkClock`.
struct TraceWalker {
    let periods: [NetworkTrace.Period]
    /// Start of each period within one pass, ms (count + 1 entries; the last is the pass length).
    let starts: [Double]
    /// Bits the trace carries from the start of the pass to the start of each period (count + 1 entries).
    let capacity: [Double]
    let pass: Double
    let passCapacity: Double

    init(trace: NetworkTrace) {
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

    /// The period holding `offset` (0 ≤ offset < pass).
    private func period(at offset: Double) -> Int {
        var low = 0
        var high = periods.count - 1
        while low < high {
            let mid = (low + high + 1) / 2
            if starts[mid] <= offset { low = mid } else { high = mid - 1 }
        }
        return low
    }

    /// Latency + transfer time of `bits` requested at `time` ms into the session.
    func downloadMilliseconds(at time: Double, bits: Double) -> Double {
        var crossings = 0
        return downloadMilliseconds(at: time, bits: bits, crossings: &crossings)
    }

    /// The same, adding to `crossings` the period boundaries the latency crossed (the only part whose cost
    /// grows with the trace: up to 60 s of latency over 1 ms periods), so a caller can bound its work.
    func downloadMilliseconds(at time: Double, bits: Double, crossings: inout Int) -> Double {
        let loops = (time / pass).rounded(.down)
        var offset = time - loops * pass
        if offset >= pass { offset = 0 }
        var index = period(at: offset)
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
        var target = capacity[index] + (startOffset - starts[index]) * periods[index].bandwidthKilobitsPerSecond + bits
        var passes = (target / passCapacity).rounded(.down)
        target -= passes * passCapacity
        if target <= 0 {
            passes -= 1
            target += passCapacity
        }
        // Smallest j with capacity[j + 1] >= target.
        var low = 0
        var high = periods.count - 1
        while low < high {
            let mid = (low + high) / 2
            if capacity[mid + 1] >= target { high = mid } else { low = mid + 1 }
        }
        let end = passes * pass + starts[low] + (target - capacity[low]) / periods[low].bandwidthKilobitsPerSecond
        return latencyTotal + (end - startOffset)
    }
}
