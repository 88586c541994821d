/// One step of a plan in the search, from its tables: the arithmetic of `LookaheadPlanner.play`, operation for
/// operation, so the same doubles.
extension LookaheadPlanner.Search {
    /// The two doubles at `pointer` and the one after it.
    @inline(__always)
    static func pair(_ pointer: UnsafePointer<Double>) -> SIMD2<Double> {
        UnsafeRawPointer(pointer).loadUnaligned(as: SIMD2<Double>.self)
    }

    /// The whole value of a plan whose last step plays `level` after `previous` (the arithmetic of `play` and
    /// `finish`).
    @inline(__always)
    func lastValue(
        row: UnsafePointer<Double>, slowRow: UnsafePointer<Double>, level: Int, previous: Int, start: Double,
        worseStart: Double, reward: Double
    ) -> Double {
        var (value, buffer, _) = step(
            row: row, slowRow: slowRow, level: level, previous: previous, start: start, worseStart: worseStart,
            reward: reward)
        if buffer < terminalTarget { value -= terminalWeight * (terminalTarget - buffer) }
        return value
    }

    /// One step from buffers already clamped under the cap (the arithmetic of `LookaheadPlanner.play`, from
    /// the tables): `level` after `previous` (a level: past the first step) at the depth whose download rows
    /// are `row` and `slowRow`, from `start` and `worseStart` and the QoE `reward` so far; returns the QoE
    /// after the step and both buffers after it.
    @inline(__always)
    func step(
        row: UnsafePointer<Double>, slowRow: UnsafePointer<Double>, level: Int, previous: Int, start: Double,
        worseStart: Double, reward: Double
    ) -> (value: Double, buffer: Double, worse: Double) {
        let value = stepValue(
            row: row, slowRow: slowRow, level: level, previous: previous, start: start, worseStart: worseStart,
            reward: reward, switches: true)
        let (buffer, worse) = buffersAfter(
            row: row, slowRow: slowRow, level: level, start: start, worseStart: worseStart)
        return (value, buffer, worse)
    }

    /// Both buffers after downloading `level` from `start` and `worseStart`: positivePart(start − download) +
    /// segment in each scenario, both lanes at once (the compiler otherwise branches on the second's sign,
    /// which is hard to predict).
    @inline(__always)
    func buffersAfter(
        row: UnsafePointer<Double>, slowRow: UnsafePointer<Double>, level: Int, start: Double, worseStart: Double
    ) -> (buffer: Double, worse: Double) {
        let buffers = positivePart(SIMD2(start, worseStart) - SIMD2(row[level], slowRow[level])) + segmentSeconds
        return (buffers[0], buffers[1])
    }

    /// The QoE after the step of `step(row:slowRow:level:previous:start:worseStart:reward:)`, alone;
    /// `switches` is false only for a first step without a previous level (the switch from `previous` is then
    /// not paid).
    @inline(__always)
    func stepValue(
        row: UnsafePointer<Double>, slowRow: UnsafePointer<Double>, level: Int, previous: Int, start: Double,
        worseStart: Double, reward: Double, switches: Bool
    ) -> Double {
        let rebuffer = positivePart(row[level] - start)
        let worseRebuffer = positivePart(slowRow[level] - worseStart)
        var value = reward + mbps[level] - rebufferPenalty * rebuffer
        if switches { value -= abs(mbps[level] - mbps[previous]) }
        value -= pessimisticPenalty * worseRebuffer
        return value
    }

    /// max(x, 0) as one instruction (`maxsd`): equal to it for every x that is not NaN (−0 gives +0 in both),
    /// and the downloads and buffers here never are.
    @inline(__always)
    func positivePart(_ x: Double) -> Double { x > 0 ? x : 0 }

    /// The lesser lane: `x.min()` (`x[1] < x[0] ? x[1] : x[0]`), without the test for NaN it adds (the bounds
    /// never are).
    @inline(__always)
    func lesser(_ x: SIMD2<Double>) -> Double { x[1] < x[0] ? x[1] : x[0] }

    /// `positivePart` of each lane (one `maxpd`).
    @inline(__always)
    func positivePart(_ x: SIMD2<Double>) -> SIMD2<Double> { x.replacing(with: 0, where: .!(x .> 0)) }

    /// A buffer before a request: idle until one more segment fits under the cap.
    @inline(__always)
    func clamped(_ buffer: Double) -> Double {
        buffer + segmentSeconds > capSeconds ? capSeconds - segmentSeconds : buffer
    }

    /// A whole plan with its terminal value: keep it if it is the best so far.
    @inline(__always)
    mutating func finish(value: Double, first: Int) {
        if value > best || (value == best && first < bestFirst) {
            best = value
            bestFirst = first
        }
    }

    /// A whole plan: the terminal value, then keep it if it is the best so far.
    @inline(__always)
    mutating func finish(value: Double, buffer: Double, first: Int) {
        var value = value
        if buffer < terminalTarget { value -= terminalWeight * (terminalTarget - buffer) }
        finish(value: value, first: first)
    }
}
