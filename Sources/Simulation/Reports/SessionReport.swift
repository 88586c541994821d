import HLS
import JSON

/// Renders one session as text or JSON.
public enum SessionReport {
    /// The `--json` object: `summary`, `segments`, `events`.
    public static func json(_ result: SessionResult, manifest: StreamManifest) -> JSONValue {
        let s = result.summary
        var summaryMembers: [(String, JSONValue)] = [
            ("trace", .string(result.traceName)),
            ("abr", .string(result.rule)),
            ("qoe_lin", .rounded(s.qoeLin)),
            ("offline_optimal_qoe_lin", .optionalNumber(s.offlineOptimalQoeLin)),
            ("percent_of_optimum", .optionalNumber(s.fractionOfOptimum.map { $0 * 100 })),
            ("constrained_optimal_qoe_lin", .optionalNumber(s.constrainedOptimalQoeLin)),
            ("percent_of_constrained_optimum", .optionalNumber(s.fractionOfConstrainedOptimum.map { $0 * 100 })),
            ("avg_bitrate_kbps", .rounded(s.averageBitrateKilobitsPerSecond)),
            ("rebuffer_s", .rounded(s.rebufferSeconds)),
            ("rebuffer_events", .integer(s.rebufferEvents)),
            ("rebuffer_ratio", .rounded(s.rebufferRatio)),
            ("switches", .integer(s.switches)),
            ("switch_magnitude_kbps", .rounded(s.switchMagnitudeKilobitsPerSecond)),
            ("startup_s", .rounded(s.startupSeconds)),
            ("played_segments", .integer(s.playedSegments)),
            ("abandoned_loads", .integer(result.abandonedLoads)),
        ]
        if let latency = s.latency {
            summaryMembers.append(("latency_p50_s", .rounded(latency.p50Seconds)))
            summaryMembers.append(("latency_p95_s", .rounded(latency.p95Seconds)))
        }
        if let error = result.offlineOptimumError {
            summaryMembers.append(("offline_optimum_error", .string(error.description)))
        }
        if let error = result.constrainedOptimumError {
            summaryMembers.append(("constrained_optimum_error", .string(error.description)))
        }
        let summary = JSONValue.object(summaryMembers)
        let segments: [JSONValue] = result.segments.map { r in
            .object([
                ("index", .integer(r.index)),
                ("request_s", .rounded(r.requestTimeSeconds)),
                ("idle_before_s", .rounded(r.idleBeforeSeconds)),
                ("variant", .integer(r.variant)),
                ("variant_name", .string(manifest.levelNames[r.variant])),
                ("bitrate_kbps", .rounded(manifest.bitratesKilobitsPerSecond[r.variant])),
                ("bytes", .integer(r.bytes)),
                ("download_s", .rounded(r.downloadSeconds)),
                ("latency_s", .rounded(r.latencySeconds)),
                ("throughput_kbps", .rounded(r.throughputKilobitsPerSecond)),
                ("buffer_s", .rounded(r.bufferAfterSeconds)),
                ("stall_s", .rounded(r.stallSeconds)),
                ("reason", .string(r.reason)),
            ])
        }
        let events: [JSONValue] = result.events.map { e in
            var members: [(String, JSONValue)] = [
                ("t", .rounded(e.time)),
                ("kind", .string(e.kind.rawValue)),
                ("detail", .string(e.detail)),
                ("position_before_s", .rounded(e.positionBeforeSeconds)),
                ("position_after_s", .rounded(e.positionAfterSeconds)),
                ("playing_before", .bool(e.playingBefore)),
                ("playing_after", .bool(e.playingAfter)),
            ]
            if let duration = e.durationSeconds { members.append(("duration_s", .rounded(duration))) }
            return .object(members)
        }
        return .object([("summary", summary), ("segments", .array(segments)), ("events", .array(events))])
    }

    /// A short human summary, then the events.
    public static func text(_ result: SessionResult, manifest: StreamManifest) -> String {
        let s = result.summary
        var lines: [String] = []
        lines.append("trace \(result.traceName), abr \(result.rule), \(s.playedSegments) segments")
        var qoe = "QoE_lin            \(fixedNumber(s.qoeLin, digits: 2))"
        var optima: [String] = []
        if let optimum = s.constrainedOptimalQoeLin {
            // A session with viewer actions: its share of what was possible under them comes first.
            optima.append(
                "optimum under the viewer's actions \(fixedNumber(optimum, digits: 2))"
                    + (s.fractionOfConstrainedOptimum.map { ", \(fixedNumber($0 * 100, digits: 1))%" } ?? ""))
            if let free = s.offlineOptimalQoeLin { optima.append("ignoring them \(fixedNumber(free, digits: 2))") }
        } else if let optimum = s.offlineOptimalQoeLin {
            optima.append(
                "offline optimum \(fixedNumber(optimum, digits: 2))"
                    + (s.fractionOfOptimum.map { ", \(fixedNumber($0 * 100, digits: 1))%" } ?? ""))
        }
        if !optima.isEmpty { qoe += "   (" + optima.joined(separator: "; ") + ")" }
        lines.append(qoe)
        if let error = result.offlineOptimumError { lines.append("offline optimum    not computed: \(error)") }
        if let error = result.constrainedOptimumError {
            lines.append("optimum under the viewer's actions not computed: \(error)")
        }
        lines.append("average bitrate    \(Int(s.averageBitrateKilobitsPerSecond.rounded())) kbps")
        lines.append(
            "rebuffering        \(fixedNumber(s.rebufferSeconds, digits: 2)) s in \(s.rebufferEvents) stalls (ratio \(fixedNumber(s.rebufferRatio * 100, digits: 2))%)"
        )
        lines.append("start-up           \(fixedNumber(s.startupSeconds, digits: 2)) s")
        if let latency = s.latency {
            lines.append(
                "latency            p50 \(fixedNumber(latency.p50Seconds, digits: 2)) s, "
                    + "p95 \(fixedNumber(latency.p95Seconds, digits: 2)) s behind the live edge")
        }
        lines.append(
            "switches           \(s.switches) (total \(Int(s.switchMagnitudeKilobitsPerSecond.rounded())) kbps)")
        if result.abandonedLoads > 0 { lines.append("abandoned loads    \(result.abandonedLoads)") }
        var counts = [Int](repeating: 0, count: manifest.levelCount)
        for level in result.playedLevels { counts[level] += 1 }
        lines.append(
            "levels played      "
                + counts.enumerated().filter { $0.element > 0 }.map {
                    "\(manifest.levelNames[$0.offset]) x\($0.element)"
                }
                .joined(separator: ", "))
        if !result.events.isEmpty {
            lines.append("events:")
            for e in result.events {
                lines.append(
                    "  \(fixedNumber(e.time, digits: 2)) s  \(e.kind.rawValue) \(e.detail): position \(fixedNumber(e.positionBeforeSeconds, digits: 2)) -> \(fixedNumber(e.positionAfterSeconds, digits: 2)) s, "
                        + "\(e.playingBefore ? "playing" : "paused") -> \(e.playingAfter ? "playing" : "paused")")
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
