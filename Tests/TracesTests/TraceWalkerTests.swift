import FilterzTestSupport
import Testing
import Traces

/// What a looping trace carries over time: `bitsCarried(until:)` and `time(whenCarried:)` are inverses, agree
/// with the download model, and loop.
struct TraceWalkerTests {
    static func period(_ milliseconds: Double, _ kilobitsPerSecond: Double, _ latency: Double = 0)
        -> NetworkTrace.Period
    {
        NetworkTrace.Period(
            durationMilliseconds: milliseconds, bandwidthKilobitsPerSecond: kilobitsPerSecond,
            latencyMilliseconds: latency)
    }

    @Test func aStepTraceCarriesWhatItsPeriodsAddUpToAndLoops() throws {
        // 1 s at 4 Mb/s, 0.5 s outage, 1 s at 1 Mb/s: 5,000,000 bits a pass of 2.5 s.
        let walker = TraceWalker(
            trace: try NetworkTrace(
                name: "steps", periods: [Self.period(1000, 4000), Self.period(500, 0), Self.period(1000, 1000)]))
        #expect(walker.bitsCarried(until: 0) == 0)
        #expect(walker.bitsCarried(until: 500) == 2_000_000)
        #expect(walker.bitsCarried(until: 1200) == 4_000_000)
        #expect(walker.bitsCarried(until: 2000) == 4_500_000)
        #expect(walker.bitsCarried(until: 2500) == 5_000_000)
        #expect(walker.bitsCarried(until: 5250) == 11_000_000)
        // The outage: the bit after the first 4,000,000 waits until 1.5 s.
        #expect(walker.time(whenCarried: 4_000_000) == 1000)
        #expect(abs(walker.time(whenCarried: 4_000_001) - 1500.001) < 1e-9)
        #expect(walker.time(whenCarried: 11_000_000) == 5250)
        #expect(walker.period(at: 1200).bandwidthKilobitsPerSecond == 0)
        #expect(walker.period(at: 2600).bandwidthKilobitsPerSecond == 4000)
    }

    @Test func capacityAndItsInverseAgreeWithTheDownloadModelOnRandomTraces() throws {
        var generator = SeededGenerator(seed: 0x7EAC_E033)
        var checked = 0
        for trial in 0..<50 {
            let periods = (0..<Int.random(in: 1...8, using: &generator)).map { _ in
                Self.period(
                    Double(Int.random(in: 1...3000, using: &generator)),
                    Bool.random(using: &generator) ? 0 : Double(Int.random(in: 1...9000, using: &generator)),
                    Double(Int.random(in: 0...100, using: &generator)))
            }
            guard let trace = try? NetworkTrace(name: "random \(trial)", periods: periods) else { continue }
            let walker = TraceWalker(trace: trace)
            for _ in 0..<40 {
                let time = Double(Int.random(in: 0...40_000, using: &generator))
                let carried = walker.bitsCarried(until: time)
                #expect(walker.bitsCarried(until: time + 1) >= carried)
                // Never after `time`: earlier only when the link was idle (an outage) just before it.
                let back = walker.time(whenCarried: carried)
                #expect(back <= time + 1e-6, "trial \(trial): \(back) > \(time)")
                #expect(abs(walker.bitsCarried(until: back) - carried) <= 1e-6 * max(1, carried), "trial \(trial)")
                // A download is its latency, then the time the link takes to carry its bits.
                let bits = Double(Int.random(in: 1...5_000_000, using: &generator))
                let start = time + walker.downloadMilliseconds(at: time, bits: 0)
                let expected = walker.time(whenCarried: walker.bitsCarried(until: start) + bits) - time
                let download = walker.downloadMilliseconds(at: time, bits: bits)
                #expect(abs(download - expected) <= 1e-6 * max(1, expected), "trial \(trial)")
                checked += 1
            }
        }
        #expect(checked > 1000)
    }
}
