// filterz-bench: benchmarks that generate their inputs and print ratios against anchors measured in the same run.
// Usage: filterz-bench <parse|filter|segment|serve|simulate|abr|photo|deep>
#if canImport(Glibc)
import Glibc
#endif

let benchmarks: [String: () -> Int32] = [
    "serve": ServeBenchmark.run,
    "parse": ParseBenchmark.run,
    "filter": FilterBenchmark.run,
    "segment": SegmentBenchmark.run,
    "simulate": SimulateBenchmark.run,
    "abr": ABRBenchmark.run,
    "photo": PhotoBenchmark.run,
    "deep": DeepBenchmark.run,
]

let arguments = Array(CommandLine.arguments.dropFirst())
guard let name = arguments.first, let benchmark = benchmarks[name] else {
    print("usage: filterz-bench <\(benchmarks.keys.sorted().joined(separator: "|"))>")
    exit(2)
}
exit(benchmark())
