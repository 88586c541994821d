// filterz-bench: benchmarks that generate their inputs and print ratios against anchors measured in the same
// run. Commands, options and help go through the filterz CLI's own parser (`filterz-bench NAME --help`).
import FilterzCLI
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A benchmark that takes no input.
func simpleBenchmark(_ name: String, _ abstract: String, _ run: @escaping @Sendable () -> Int32) -> Command {
    Command(CommandSpec(name: name, abstract: abstract)) { _, _ in run() }
}

let root = Command(
    CommandSpec(
        name: "filterz-bench",
        abstract: "Benchmarks against anchors measured in the same run; the last line of each is one JSON object."),
    subcommands: [
        simpleBenchmark("parse", "The HLS parser against Python m3u8 on a 100,000-segment playlist.", ParseBenchmark.run),
        FilterBenchmark.command,
        SegmentBenchmark.command,
        ServeBenchmark.command,
        SimulateBenchmark.command,
        ABRBenchmark.command,
        simpleBenchmark("photo", "filterz photo apply against ImageMagick and vips on a 12 MP photo.", PhotoBenchmark.run),
        LiveBenchmark.command,
    ])

exit(
    CLI.run(
        root, arguments: Array(CommandLine.arguments.dropFirst()), stdout: FileDescriptorOutput.standardOutput,
        stderr: FileDescriptorOutput.standardError, environment: ProcessInfo.processInfo.environment))
