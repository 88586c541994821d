import CLIKit
import Playback
import Simulation

/// `simulate --live`: a live stream published in virtual time (a synthetic ladder, or any stream's segments) or a
/// live playlist (a `record --live` folder or URL), watched by a viewer that follows hls.js's live behaviour.
extension SimulateCommand {
    static let live = Option.flag(
        "--live", help: "Simulate a live stream: a live playlist is always live; a manifest or VOD is published live.")
    static let ladder = Option.optional(
        "--ladder", placeholder: "WxH@RATE,…",
        help: "Synthetic live ladder instead of STREAM, e.g. 1280x720@2500k,640x360@800k (needs --live).")
    static let segmentDuration = Option.text(
        "--segment-duration", placeholder: "TIME", default: "2s",
        help: "Segment duration of a synthetic live ladder, 0.1…60s.")
    static let partDuration = Option.optional(
        "--part-duration", placeholder: "TIME",
        help: "LL-HLS parts of this duration (0.05s up to the segment) for a synthetic or published stream.")
    static let window = Option.optionalInteger(
        "--window", placeholder: "N", in: 3...100_000,
        help: "Live window of N segments, 3…100000 (default: EVENT, every segment stays listed).")
    static let watch = Option.text(
        "--watch", placeholder: "TIME", default: "120s",
        help: "Virtual time a live session is watched, 1…86400 seconds, e.g. 600s.")
    static let catchUpRate = Option.decimal(
        "--catch-up-rate", placeholder: "RATE", default: 1, in: 1...2,
        help: "hls.js maxLiveSyncPlaybackRate, 1…2: play up to this fast to get back to the target latency.")

    /// The live options of a command line, checked before anything is read.
    struct LivePlan {
        /// `--live` was given (a live playlist is simulated live without it, with the defaults).
        var requested: Bool
        /// `--watch` or `--catch-up-rate` when given: a stream that is not live refuses it.
        var sessionOption: String?
        /// A synthetic ladder (`--ladder`) instead of STREAM.
        var ladder: StreamManifest?
        var partSeconds: Double?
        var windowSegments: Int?
        var configuration: LiveSessionConfiguration

        static func parse(_ args: ParsedArguments, stream: String?) throws(CLIError) -> LivePlan {
            let ladderText = try args.get(SimulateCommand.ladder)
            let requested = try args.get(SimulateCommand.live)
            if !requested {
                let given = [
                    (SimulateCommand.ladder.name, args.isGiven(SimulateCommand.ladder)),
                    (SimulateCommand.segmentDuration.name, args.isGiven(SimulateCommand.segmentDuration)),
                    (SimulateCommand.partDuration.name, args.isGiven(SimulateCommand.partDuration)),
                    (SimulateCommand.window.name, args.isGiven(SimulateCommand.window)),
                ]
                for (name, isGiven) in given where isGiven { throw .usage("\(name) needs --live") }
            }
            // These two also apply to a stream that turns out to be live; a VOD stream refuses them.
            let sessionOption = [SimulateCommand.watch.name, SimulateCommand.catchUpRate.name].first {
                $0 == SimulateCommand.watch.name
                    ? args.isGiven(SimulateCommand.watch) : args.isGiven(SimulateCommand.catchUpRate)
            }
            if ladderText != nil, stream != nil { throw .usage("give either STREAM or --ladder, not both") }
            if ladderText == nil, stream == nil { throw .usage("missing argument <stream> (or --live --ladder)") }
            let segment = try Quantity.seconds(
                try args.get(SimulateCommand.segmentDuration), option: "--segment-duration")
            guard (0.1...60).contains(segment) else {
                throw .usage(
                    "--segment-duration expects a time in 0.1…60s, got '\(try args.get(SimulateCommand.segmentDuration))'"
                )
            }
            var ladder: StreamManifest?
            if let ladderText { ladder = try Self.ladder(ladderText, segmentSeconds: segment) }
            var part: Double?
            if let text = try args.get(SimulateCommand.partDuration) {
                let value = try Quantity.seconds(text, option: "--part-duration")
                guard value >= 0.05, ladder == nil || value <= segment else {
                    throw .usage("--part-duration expects a time from 0.05s up to the segment duration, got '\(text)'")
                }
                part = value
            }
            let watch = try Quantity.seconds(try args.get(SimulateCommand.watch), option: "--watch")
            guard (1...SimulationLimits.maximumStreamSeconds).contains(watch) else {
                throw .usage("--watch expects a time in 1…86400 seconds, got '\(try args.get(SimulateCommand.watch))'")
            }
            var configuration = LiveSessionConfiguration(durationSeconds: watch)
            configuration.sync.maxLiveSyncPlaybackRate = try args.get(SimulateCommand.catchUpRate)
            return LivePlan(
                requested: requested, sessionOption: sessionOption, ladder: ladder, partSeconds: part,
                windowSegments: try args.get(SimulateCommand.window),
                configuration: configuration)
        }

        /// `1280x720@2500k,640x360@800k`: levels by ascending rate, every segment at its nominal size.
        static func ladder(_ text: String, segmentSeconds: Double) throws(CLIError) -> StreamManifest {
            var levels: [(width: Int, height: Int, bitsPerSecond: Double)] = []
            for item in text.split(separator: ",") {
                let halves = item.split(separator: "@").map(String.init)
                let sides = halves.first?.split(separator: "x").compactMap { Int($0) } ?? []
                var rate = halves.count == 2 ? halves[1].lowercased() : ""
                if rate.hasSuffix("k") || rate.hasSuffix("m") { rate += "bps" }
                guard halves.count == 2, sides.count == 2, sides.allSatisfy({ (1...16_384).contains($0) }),
                    let bits = try? Quantity.bitsPerSecond(rate, option: "--ladder")
                else {
                    throw .usage("--ladder expects WIDTHxHEIGHT@RATE[,…] like 1280x720@2500k, got '\(item)'")
                }
                levels.append((sides[0], sides[1], bits))
            }
            // Listed as written (hls.js starts at the first), kept ascending as every manifest is.
            let firstListed = levels.first?.bitsPerSecond
            levels.sort { $0.bitsPerSecond < $1.bitsPerSecond }
            do {
                var manifest = try StreamManifest(
                    segmentDurationMilliseconds: segmentSeconds * 1000,
                    bitratesKilobitsPerSecond: levels.map { $0.bitsPerSecond / 1000 },
                    segmentSizesBits: [levels.map { $0.bitsPerSecond * segmentSeconds }],
                    resolutions: levels.map { (width: $0.width, height: $0.height) })
                manifest.firstListedLevel = levels.firstIndex { $0.bitsPerSecond == firstListed } ?? 0
                return manifest
            } catch {
                throw .usage("--ladder: \(error.description)")
            }
        }
    }

    /// Runs a live session (or a batch of them) and reports it with its latency.
    static func runLive(
        _ plan: Plan, live: LivePlan, stream liveStream: LiveStream, context: CommandContext
    ) throws(CLIError) -> Int32 {
        var configuration = live.configuration
        configuration.session = plan.configuration
        let manifest = liveStream.manifest
        let trace: NetworkTrace
        switch plan.network {
        case .traces(let folder):
            let traces = try TraceLoader.loadFolder(folder)
            let chosen = plan.rules.isEmpty ? [ABRRuleKind.filterz] : plan.rules
            let results = BatchSimulation.runLive(
                stream: liveStream, traces: traces, rules: chosen, configuration: configuration, threads: .allCores)
            return printBatch(BatchReport(results: results, rules: chosen), json: plan.json, context)
        case .trace(let path): trace = try TraceLoader.load(path)
        case .constant(let link): trace = link
        }
        configuration.session.rule = plan.rules.first ?? .filterz
        let result = LiveSession.run(stream: liveStream, trace: trace, configuration: configuration).result
        if let path = plan.plotPath { try writePlot(TimelinePlot.svg(result, manifest: manifest, trace: trace), path) }
        if plan.json {
            context.stdout.line(SessionReport.json(result, manifest: manifest).rendered(indent: nil))
        } else {
            context.stdout.write(SessionReport.text(result, manifest: manifest))
        }
        return ExitCode.success
    }

    /// The live stream to publish: the synthetic ladder, a live playlist as it announces itself, or any other
    /// stream's segments published live.
    static func liveStream(_ live: LivePlan, manifest: StreamManifest, facts: HLSStreamManifest.LiveFacts?)
        -> LiveStream
    {
        let parts = live.partSeconds ?? facts?.partTargetSeconds
        var stream = LiveStream(
            manifest: manifest, partSeconds: parts.map { min($0, manifest.segmentDurationSeconds) },
            windowSegments: live.windowSegments ?? facts?.windowSegments)
        if let facts, live.partSeconds == nil {
            stream.holdBackSeconds = facts.holdBackSeconds
            stream.partHoldBackSeconds = facts.partHoldBackSeconds
        }
        return stream
    }
}
