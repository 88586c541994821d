import Parallel
import Playback
import Testing

@testable import Simulation

/// A batch gives the same results on lent threads as on the calling thread: each trace's sessions are
/// placed by index, whatever order the jobs finish in.
@Suite struct BatchSimulationTests {
    @Test func lentThreadsGiveTheSameResultsAsTheCallingThread() throws {
        let manifest = try #require(ReferenceComparisonTests.manifest)
        let traces = (1...6).map { PythonReferenceTests.randomWalk(seed: UInt64($0)) }
        let rules: [ABRRuleKind] = [.throughput, .bola]
        func batch(_ threads: LentThreads) -> [[Int]] {
            BatchSimulation.run(
                manifest: manifest, traces: traces, rules: rules,
                configuration: SessionConfiguration(bufferCapSeconds: 30), withOptimum: false, threads: threads
            ).flatMap(\.playedLevels)
        }
        let alone = batch(.callingThread)
        #expect(alone.count == traces.count * rules.count)
        #expect(alone.allSatisfy { !$0.isEmpty })
        #expect(batch(.dispatch(width: 3)) == alone)
    }
}
