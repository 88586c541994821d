import HLS
import JSON

/// The input of the Python reference simulator (`Benchmarks/reference_simulator.py`, the independent second
/// implementation of the model that the tests check `SessionSimulator` against and `filterz-bench simulate` times
/// as its same-run anchor): the manifest in Sabre's movie format, the traces in the format of
/// `shared/traces/FORMAT.md`, the rule and the buffer settings, as one JSON object. Doubles are written in their
/// shortest round-trip form (not rounded), so Python reads back exactly the same numbers.
public enum ReferenceSimulatorInput {
    public static func json(manifest: StreamManifest, traces: [NetworkTrace], configuration: SessionConfiguration)
        -> String
    {
        func numbers(_ values: [Double]) -> JSONValue { .array(values.map { .number($0) }) }
        let traceObjects: [JSONValue] = traces.map { trace in
            .object([
                ("name", .string(trace.name)),
                (
                    "samples",
                    .array(
                        trace.periods.map { period in
                            .object([
                                ("duration_ms", .number(period.durationMilliseconds)),
                                ("bandwidth_kbps", .number(period.bandwidthKilobitsPerSecond)),
                                ("latency_ms", .number(period.latencyMilliseconds)),
                            ])
                        })
                ),
            ])
        }
        let job = JSONValue.object([
            (
                "manifest",
                .object([
                    ("segment_duration_ms", .number(manifest.segmentDurationMilliseconds)),
                    ("bitrates_kbps", numbers(manifest.bitratesKilobitsPerSecond)),
                    ("segment_sizes_bits", .array(manifest.segmentSizesBits.map(numbers))),
                ])
            ),
            ("traces", .array(traceObjects)),
            ("rule", .string(configuration.rule.rawValue)),
            ("buffer_s", .number(configuration.bufferCapSeconds)),
            ("startup_s", configuration.startupThresholdSeconds.map { .number($0) } ?? .null),
        ])
        return job.rendered(indent: nil)
    }
}
