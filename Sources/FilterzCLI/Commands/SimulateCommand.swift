import CLIKit
import Foundation
import Parallel
import Platform
import Playback
import Simulation

/// `filterz simulate`: replays a stream over a network trace through the quality selector and the playback
/// machine in virtual time, and reports QoE, the per-segment log, viewer actions, stalls and a plot.
enum SimulateCommand {
    static let trace = Option.optional(
        "--trace", placeholder: "FILE", help: "Network trace (JSON, see shared/traces/FORMAT.md).")
    static let traces = Option.optional(
        "--traces", placeholder: "DIR", help: "Run every *.json trace under DIR (batch).")
    static let bandwidth = Option.optional(
        "--bandwidth", placeholder: "RATE", help: "Constant link instead of a trace, 1kbps…100gbps, e.g. 3mbps.")
    static let latency = Option.text(
        "--latency", placeholder: "TIME", default: "40ms", help: "Request latency of the constant link, 0…60s.")
    static let abr = Option.repeatable(
        "--abr", placeholder: "RULE",
        help: "throughput|bba|bola|mpc|filterz|hlsjs (repeat to compare; default filterz).")
    static let buffer = Option.optionalDecimal(
        "--buffer", placeholder: "SECONDS", in: 1...3600,
        help: "Buffer cap in seconds, 1…3600 (default 60; hlsjs: its maxBufferLength, default 30).")
    static let startup = Option.optionalDecimal(
        "--startup", placeholder: "SECONDS", in: 0...3600,
        help: "Start playback once this much is buffered, 0…3600 (default: first segment).")
    static let viewport = Option.optional(
        "--viewport", placeholder: "WxH@S",
        help: "Screen in points (1…10000) and scale (1…10), e.g. 390x844@3 (caps quality).")
    static let rotate = Option.repeatable(
        "--rotate", placeholder: "T:ORIENTATION", help: "At T seconds (0…604800) rotate to portrait|landscape.")
    static let select = Option.repeatable(
        "--select", placeholder: "T:QUALITY", help: "At T seconds pick a quality (540p, index, or auto).")
    static let seek = Option.repeatable(
        "--seek", placeholder: "T:POSITION", help: "At T seconds seek to POSITION seconds (0…86400).")
    static let subtitles = Option.optional(
        "--subtitles", placeholder: "LANG", help: "Subtitle language to select at start (or off).")
    static let grid = Option.decimal(
        "--grid", placeholder: "MS", default: 100, in: 1...10_000,
        help: "Time grid of the offline optimum, 1…10000 milliseconds.")
    static let noOptimum = Option.flag("--no-optimum", help: "Skip the offline optimum.")
    static let json = Option.flag(
        "--json", help: "Print JSON: summary, segments, events (batch: per rule and per trace).")
    static let plot = Option.optional("--plot", placeholder: "FILE", help: "Write an SVG timeline (single trace).")

    static var command: Command {
        Command(
            CommandSpec(
                name: "simulate",
                abstract: "Simulate adaptive playback of a stream over a network trace; report QoE and stalls.",
                discussion: """
                    The stream is a manifest JSON (Sabre movie format: bitrates and per-segment sizes), a \
                    multivariant playlist file, a folder made by `filterz record`, or an http:// URL. The network \
                    is a trace (--trace), every trace in a folder (--traces, all cores, one column per --abr), or \
                    a constant link (--bandwidth, --latency). Time is virtual: a session takes milliseconds.
                    QoE_lin = sum of bitrates (Mbps) - 4.3 x rebuffer seconds - sum of |bitrate changes| (Mbps), \
                    compared with the offline optimum (dynamic programming with the whole trace known); with \
                    --select or --rotate also with the optimum under the same actions (a manual pick fixes the level \
                    until auto), the one to compare with.
                    Live (--live, or a live playlist: a `record --live [--low-latency]` folder or URL, read once): the \
                    stream is published in virtual time and watched as hls.js 1.6 watches it (parts and blocking \
                    reloads with LL-HLS, its target latency and catch-up rate); the report adds the latency behind \
                    the live edge (p50, p95) and has no offline optimum.
                    Every number has a range (docs/SIMULATION.md): a flag outside it exits 2, a trace or manifest value \
                    1; a session that has not played the stream after 7 days of virtual time fails (exit 1).
                    """,
                arguments: [
                    ArgumentSpec(
                        "stream", help: "Manifest JSON, playlist file, recorded folder or http:// URL.",
                        isOptional: true)
                ],
                options: [
                    trace.spec, traces.spec, bandwidth.spec, latency.spec, abr.spec, buffer.spec, startup.spec,
                    viewport.spec, rotate.spec, select.spec, seek.spec, subtitles.spec, grid.spec, noOptimum.spec,
                    json.spec, plot.spec, live.spec, ladder.spec, segmentDuration.spec, partDuration.spec, window.spec,
                    watch.spec, catchUpRate.spec,
                ],
                examples: [
                    "filterz simulate ../shared/manifests/pensieve_envivio_48.json --trace ../shared/traces/json/pensieve_norway/norway_bus_1.json",
                    "filterz simulate out/master.m3u8 --bandwidth 3mbps --latency 40ms --rotate 30:landscape --select 45:540p --select 60:auto --plot report.svg",
                    "filterz simulate manifest.json --traces ../shared/traces/json --abr bola --abr mpc --abr filterz",
                    "filterz simulate --live --ladder 1280x720@2500k,640x360@800k --part-duration 0.333s --bandwidth 5mbps --catch-up-rate 1.5",
                    "filterz simulate http://127.0.0.1:8080/v1/videos/live/master.m3u8 --bandwidth 5mbps --watch 60s",
                ]),
            action: { args, context in try run(args, context) })
    }

    static func writePlot(_ svg: String, _ path: String) throws(CLIError) {
        do {
            try AtomicFile.write(svg, to: path)  // a viewer never sees half a plot
        } catch {
            throw .input("cannot write \(path): \(error.reason)")
        }
    }

    static func run(_ args: ParsedArguments, _ context: CommandContext) throws(CLIError) -> Int32 {
        try run(Plan.parse(args), context)
    }

    /// Runs a checked command line: reads the stream and the network, simulates, reports.
    static func run(_ plan: Plan, _ context: CommandContext) throws(CLIError) -> Int32 {
        let manifest: StreamManifest
        var liveFacts: HLSStreamManifest.LiveFacts?
        if let stream = plan.stream {
            (manifest, liveFacts) = try StreamLoader.load(stream)
        } else {
            manifest = plan.live.ladder!
        }
        if plan.live.requested || liveFacts != nil {
            if liveFacts != nil, !plan.schedule.entries.isEmpty {
                throw .usage("--rotate, --select, --seek and --subtitles are not simulated live")
            }
            let stream = liveStream(plan.live, manifest: manifest, facts: liveFacts)
            return try runLive(plan, live: plan.live, stream: stream, context: context)
        }
        if let option = plan.live.sessionOption {
            throw .usage("\(option) applies to live streams; \(plan.stream ?? "the stream") is not live (add --live)")
        }
        let actions = try plan.schedule.actions(screen: plan.screen, manifest: manifest)
        var configuration = plan.configuration
        let grid = plan.gridMilliseconds
        let trace: NetworkTrace
        switch plan.network {
        case .traces(let folder):
            let traces = try TraceLoader.loadFolder(folder)
            let chosen = plan.rules.isEmpty ? [ABRRuleKind.filterz] : plan.rules
            let results = BatchSimulation.run(
                manifest: manifest, traces: traces, rules: chosen, configuration: configuration,
                withOptimum: plan.withOptimum, gridMilliseconds: grid, threads: .allCores)
            if let unfinished = results.lazy.compactMap(\.unfinished).first { throw .failure(unfinished.description) }
            return printBatch(BatchReport(results: results, rules: chosen), json: plan.json, context)
        case .trace(let path): trace = try TraceLoader.load(path)
        case .constant(let link): trace = link
        }
        configuration.rule = plan.rules.first ?? .filterz
        var result = SimulatedSession.run(
            manifest: manifest, trace: trace, configuration: configuration, schedule: actions)
        if let unfinished = result.unfinished { throw .failure(unfinished.description) }
        if plan.withOptimum {
            do {
                // The best path that starts where this player starts (hls.js: the first variant listed).
                let optimum = try OfflineOptimum.compute(
                    manifest: manifest, trace: trace, bufferCapSeconds: configuration.bufferCapSeconds,
                    startupThresholdSeconds: configuration.startupThresholdSeconds,
                    highestLevel: QualitySelector.viewportCap(
                        variants: manifest.variants, viewport: configuration.viewport),
                    firstLevel: configuration.rule == .hlsjs ? manifest.firstListedLevel : 0, gridMilliseconds: grid)
                result.summary.offlineOptimalQoeLin = optimum.qoeLin
            } catch {
                result.offlineOptimumError = error
            }
            if actions.contains(where: \.constrainsLevels) {
                // The viewer's actions constrain the session; the optimum it is measured against honours them too.
                do {
                    let constraints = try ViewerConstraints(
                        actions: actions, manifest: manifest, viewport: configuration.viewport)
                    let optimum = try OfflineOptimum.compute(
                        manifest: manifest, trace: trace, bufferCapSeconds: configuration.bufferCapSeconds,
                        startupThresholdSeconds: configuration.startupThresholdSeconds, constraints: constraints,
                        gridMilliseconds: grid)
                    result.summary.constrainedOptimalQoeLin = optimum.qoeLin
                } catch {
                    result.constrainedOptimumError = error
                }
            }
        }
        if let path = plan.plotPath { try writePlot(TimelinePlot.svg(result, manifest: manifest, trace: trace), path) }
        if plan.json {
            context.stdout.line(SessionReport.json(result, manifest: manifest).rendered(indent: nil))
        } else {
            context.stdout.write(SessionReport.text(result, manifest: manifest))
        }
        return ExitCode.success
    }

    /// A batch's table (or JSON) on standard output.
    static func printBatch(_ report: BatchReport, json: Bool, _ context: CommandContext) -> Int32 {
        if json {
            context.stdout.line(report.json().rendered(indent: nil))
        } else {
            context.stdout.write(report.text())
        }
        return ExitCode.success
    }
}
