import CLIKit
// filterz-bench: benchmarks that generate their inputs and print ratios against anchors measured in the same
// run. Commands, options and help go through the filterz CLI's own parser (`filterz-bench NAME --help`).
import FilterzCLI
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

let root = Command(
    CommandSpec(
        name: "filterz-bench",
        abstract: "Benchmarks against anchors measured in the same run; the last line of each is one JSON object."),
    subcommands: [
        ParseBenchmark.command,
        FilterBenchmark.command,
        SegmentBenchmark.command,
        ServeBenchmark.command,
        ShapeBenchmark.command,
        SimulateBenchmark.command,
        ABRBenchmark.command,
        FidelityBenchmark.command,
        Command(
            CommandSpec(name: "photo", abstract: "filterz photo apply against ImageMagick and vips on a 12 MP photo.")
        ) { _, _ in PhotoBenchmark.run() },
        LiveBenchmark.command,
        DeepBenchmark.command,
        DefineBenchmark.command,
        XMPBenchmark.command,
    ])

exit(
    CLI.run(
        root, arguments: Array(CommandLine.arguments.dropFirst()), stdout: FileDescriptorOutput.standardOutput,
        stderr: FileDescriptorOutput.standardError))
