import CLIKit
import Playback
import Simulation

extension SimulateCommand {
    /// A `simulate` command line checked whole before anything is read or fetched: a flag out of its range is a
    /// usage error (exit 2) at once, whatever the stream or the network. Only `--select` waits for the stream,
    /// whose qualities it names.
    struct Plan {
        /// Where the network of the sessions comes from.
        enum Network {
            /// `--traces DIR`: every `*.json` trace under the folder, a session per trace and rule.
            case traces(folder: String)
            /// `--trace FILE`.
            case trace(path: String)
            /// `--bandwidth RATE [--latency TIME]`: a constant link.
            case constant(NetworkTrace)
        }

        /// STREAM; nil with a synthetic live ladder (`--live --ladder`).
        var stream: String?
        var live: LivePlan
        /// `--abr` in the order given; empty: the filterz rule.
        var rules: [ABRRuleKind]
        var network: Network
        /// The buffer cap, the start-up threshold and the viewport (upright) of the sessions.
        var configuration: SessionConfiguration
        var screen: DeviceScreen?
        var schedule: ViewerSchedule
        var gridMilliseconds: Double
        var withOptimum: Bool
        var json: Bool
        var plotPath: String?

        static func parse(_ args: ParsedArguments) throws(CLIError) -> Plan {
            let stream = args.positionals.first
            let live = try LivePlan.parse(args, stream: stream)
            let rules = try args.get(SimulateCommand.abr).map { (name: String) throws(CLIError) -> ABRRuleKind in
                guard let rule = ABRRuleKind(rawValue: name) else {
                    throw .usage(
                        "--abr expects one of \(ABRRuleKind.allCases.map(\.rawValue).joined(separator: "|")), got '\(name)'"
                    )
                }
                return rule
            }
            let network = try Self.network(args)
            if rules.count > 1 {
                guard case .traces = network else {
                    throw .usage("several --abr need --traces DIR; give one --abr for a single trace")
                }
            }
            var configuration = SessionConfiguration()
            if let buffer = try args.get(SimulateCommand.buffer) {
                configuration.bufferCapSeconds = buffer
                configuration.hlsjs.maxBufferLengthSeconds = buffer
            }
            if let startup = try args.get(SimulateCommand.startup) { configuration.startupThresholdSeconds = startup }
            let screen = try args.get(SimulateCommand.viewport).map { (text: String) throws(CLIError) in
                try Screen.parse(text)
            }
            configuration.viewport = screen?.viewport(.portrait)
            if live.requested, try !ViewerSchedule.parse(args).entries.isEmpty {
                throw .usage("--rotate, --select, --seek and --subtitles are not simulated live")
            }
            return Plan(
                stream: stream, live: live, rules: rules, network: network, configuration: configuration,
                screen: screen,
                schedule: try ViewerSchedule.parse(args), gridMilliseconds: try args.get(SimulateCommand.grid),
                withOptimum: try !args.get(SimulateCommand.noOptimum), json: try args.get(SimulateCommand.json),
                plotPath: try args.get(SimulateCommand.plot))
        }

        /// `--traces DIR`, `--trace FILE`, or `--bandwidth RATE [--latency TIME]` (checked, not read).
        static func network(_ args: ParsedArguments) throws(CLIError) -> Network {
            if let folder = try args.get(SimulateCommand.traces) { return .traces(folder: folder) }
            if let path = try args.get(SimulateCommand.trace) {
                if try args.get(SimulateCommand.bandwidth) != nil {
                    throw .usage("give either --trace or --bandwidth, not both")
                }
                return .trace(path: path)
            }
            guard let rate = try args.get(SimulateCommand.bandwidth) else {
                throw .usage("missing network: --trace FILE, --traces DIR or --bandwidth RATE")
            }
            return .constant(
                try Quantity.constantLink(
                    rate: rate, latency: try args.get(SimulateCommand.latency), rateOption: "--bandwidth",
                    latencyOption: "--latency"))
        }
    }
}
