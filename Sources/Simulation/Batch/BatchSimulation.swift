import Parallel
import Playback

/// Many sessions at once: every trace × every rule, a trace per job on the threads the caller lends, with each
/// trace's offline optimum. Results are placed by index, so the output does not depend on scheduling.
public enum BatchSimulation {
    /// One trace's results.
    public struct TraceResult: Sendable {
        public var traceName: String
        public var offlineOptimum: OfflineOptimum?
        /// Why there is no optimum although one was asked for (a case beyond its limits).
        public var offlineOptimumError: SimulationError?
        /// The first session of this trace that hit the session bound, if any (the run is then an error).
        public var unfinished: SimulationError?
        /// Summaries in the order of the rules asked for.
        public var summaries: [QoESummary]
        public var playedLevels: [[Int]]
    }

    public static func run(
        manifest: StreamManifest, traces: [NetworkTrace], rules: [ABRRuleKind], configuration: SessionConfiguration,
        withOptimum: Bool = true, gridMilliseconds: Double = 100, threads: LentThreads = .callingThread
    ) -> [TraceResult] {
        let results = ResultSlots<TraceResult>(count: traces.count)
        threads.run(traces.count) { i in
            let trace = traces[i]
            var optimum: OfflineOptimum?
            var optimumError: SimulationError?
            if withOptimum {
                do throws(SimulationError) {
                    optimum = try OfflineOptimum.compute(
                        manifest: manifest, trace: trace, bufferCapSeconds: configuration.bufferCapSeconds,
                        startupThresholdSeconds: configuration.startupThresholdSeconds,
                        highestLevel: QualitySelector.viewportCap(
                            variants: manifest.variants, viewport: configuration.viewport),
                        gridMilliseconds: gridMilliseconds)
                } catch {
                    optimumError = error
                }
            }
            var summaries: [QoESummary] = []
            var levels: [[Int]] = []
            var unfinished: SimulationError?
            for rule in rules {
                var config = configuration
                config.rule = rule
                var result = SimulatedSession.run(
                    manifest: manifest, trace: trace, configuration: config, keepLog: false)
                result.summary.offlineOptimalQoeLin = optimum?.qoeLin
                summaries.append(result.summary)
                levels.append(result.playedLevels)
                unfinished = unfinished ?? result.unfinished
            }
            results.set(
                i,
                TraceResult(
                    traceName: trace.name, offlineOptimum: optimum, offlineOptimumError: optimumError,
                    unfinished: unfinished, summaries: summaries, playedLevels: levels))
        }
        return results.values
    }

    /// Live sessions: every trace × every rule watching `stream` (no offline optimum: it is defined for VOD).
    public static func runLive(
        stream: LiveStream, traces: [NetworkTrace], rules: [ABRRuleKind], configuration: LiveSessionConfiguration,
        threads: LentThreads = .callingThread
    ) -> [TraceResult] {
        let results = ResultSlots<TraceResult>(count: traces.count)
        threads.run(traces.count) { i in
            var summaries: [QoESummary] = []
            var levels: [[Int]] = []
            for rule in rules {
                var config = configuration
                config.session.rule = rule
                let result = LiveSession.run(stream: stream, trace: traces[i], configuration: config).result
                summaries.append(result.summary)
                levels.append(result.playedLevels)
            }
            results.set(
                i,
                TraceResult(
                    traceName: traces[i].name, offlineOptimum: nil, offlineOptimumError: nil, unfinished: nil,
                    summaries: summaries, playedLevels: levels))
        }
        return results.values
    }
}
