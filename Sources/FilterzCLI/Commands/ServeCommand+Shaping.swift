import CLIKit
import Server
import Simulation

/// `serve --shape`, `--shape-by`, `--faults`, `--fault-seed`: the network and the failures players meet.
extension ServeCommand {
    static let shape = Option.optional(
        "--shape", placeholder: "trace|rate,latency",
        help:
            "Answer through a shaped link: a network trace (simulate's format, looped) or a constant link such as 3mbps,40ms. Each client's link starts at its first request; its connections share it."
    )
    static let shapeBy = Option.choice(
        "--shape-by", placeholder: "scope", from: LinkShape.Scope.allCases.map(\.rawValue), default: "client",
        help: "With --shape: one link per client address (client) or per connection (connection).")
    static let faults = Option.repeatable(
        "--faults", placeholder: "rule",
        help:
            "Inject a failure: path=GLOB with status=CODE, cut=BYTES or delay=TIME, optionally nth=N, every=N or share=F (e.g. path=*.ts,status=503,nth=3)."
    )
    static let faultSeed = Option.integer(
        "--fault-seed", placeholder: "n", default: 1, in: 0...Int(Int32.max),
        help: "Seed of --faults share=F draws (the same requests meet the same faults).")

    /// `--shape` and `--faults` (the trace file is read here: a bad one is an input error before the server
    /// starts).
    static func shaping(_ args: ParsedArguments, into configuration: inout ServerConfiguration) throws(CLIError) {
        let scope = LinkShape.Scope(rawValue: try args.get(shapeBy)) ?? .client
        if let text = try args.get(shape) {
            configuration.shape = LinkShape(trace: try shapeTrace(text), scope: scope)
        } else if args.isGiven(shapeBy) {
            throw .usage("--shape-by needs --shape")
        }
        let rules = try args.get(faults)
        guard !rules.isEmpty else {
            if args.isGiven(faultSeed) { throw .usage("--fault-seed needs --faults") }
            return
        }
        var parsed: [FaultRule] = []
        for rule in rules {
            do throws(FaultRuleError) {
                parsed.append(try FaultRule(parsing: rule))
            } catch {
                throw .usage(error.description)
            }
        }
        configuration.faults = FaultPlan(rules: parsed, seed: UInt64(try args.get(faultSeed)))
    }

    /// `3mbps,40ms` (a constant link) or a trace file.
    static func shapeTrace(_ text: String) throws(CLIError) -> NetworkTrace {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
        guard parts.count == 2, !text.hasSuffix(".json") else { return try TraceLoader.load(text) }
        return try Quantity.constantLink(
            rate: String(parts[0]), latency: String(parts[1]), rateOption: "--shape", latencyOption: "--shape")
    }
}
