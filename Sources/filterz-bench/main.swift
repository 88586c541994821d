// filterz-bench: benchmarks that generate their inputs and print ratios against anchors measured in the same
// run. Commands, options and help go through the filterz CLI's own parser (`filterz-bench NAME --help`).
import FilterzCLI
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A benchmark whose only input is an optional word after its name.
func simpleBenchmark(_ name: String, _ abstract: String, variant: String? = nil, _ run: @escaping @Sendable () -> Int32)
    -> Command
{
    let arguments = variant.map { [ArgumentSpec("variant", help: $0, isOptional: true)] } ?? []
    return Command(CommandSpec(name: name, abstract: abstract, arguments: arguments)) { _, _ in run() }
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
    ])

exit(
    CLI.run(
        root, arguments: Array(CommandLine.arguments.dropFirst()), stdout: FileDescriptorOutput.standardOutput,
        stderr: FileDescriptorOutput.standardError, environment: ProcessInfo.processInfo.environment))
