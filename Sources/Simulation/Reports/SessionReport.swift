/// Renders one session as text or JSON.
public enum SessionReport {
    /// The `--json` object: `summary`, `segments`, `events`.
    public static func json(_ result: SessionResult, manifest: StreamManifest) -> JSONValue {
        let s = result.summary
        let summary: JSONValue = .object([
            ("trace", .string(result.traceName)),
            ("abr", .string(result.rule)),
            ("qoe_lin", .number(s.qoeLin)),
            ("offline_optimal_qoe_lin", .optionalNumber(s.offlineOptimalQoeLin)),
            ("percent_of_optimum", .optionalNumber(s.fractionOfOptimum.map { $0 * 100 })),
            ("avg_bitrate_kbps", .number(s.averageBitrateKilobitsPerSecond)),
            ("rebuffer_s", .number(s.rebufferSeconds)),
            ("rebuffer_events", .integer(s.rebufferEvents)),
            ("rebuffer_ratio", .number(s.rebufferRatio)),
            ("switches", .integer(s.switches)),
            ("switch_magnitude_kbps", .number(s.switchMagnitudeKilobitsPerSecond)),
            ("startup_s", .number(s.startupSeconds)),
            ("played_segments", .integer(s.playedSegments)),
        ])
        let segments: [JSONValue] = result.segments.map { r in
            .object([
                ("index", .integer(r.index)),
                ("request_s", .number(r.requestTimeSeconds)),
                ("idle_before_s", .number(r.idleBeforeSeconds)),
                ("variant", .integer(r.variant)),
                ("variant_name", .string(manifest.levelNames[r.variant])),
                ("bitrate_kbps", .number(manifest.bitratesKilobitsPerSecond[r.variant])),
                ("bytes", .integer(r.bytes)),
                ("download_s", .number(r.downloadSeconds)),
                ("latency_s", .number(r.latencySeconds)),
                ("throughput_kbps", .number(r.throughputKilobitsPerSecond)),
                ("buffer_s", .number(r.bufferAfterSeconds)),
                ("stall_s", .number(r.stallSeconds)),
                ("reason", .string(r.reason)),
            ])
        }
        let events: [JSONValue] = result.events.map { e in
            var members: [(String, JSONValue)] = [
                ("t", .number(e.time)),
                ("kind", .string(e.kind.rawValue)),
                ("detail", .string(e.detail)),
                ("position_before_s", .number(e.positionBeforeSeconds)),
                ("position_after_s", .number(e.positionAfterSeconds)),
                ("playing_before", .bool(e.playingBefore)),
                ("playing_after", .bool(e.playingAfter)),
            ]
            if let duration = e.durationSeconds { members.append(("duration_s", .number(duration))) }
            return .object(members)
        }
        return .object([("summary", summary), ("segments", .array(segments)), ("events", .array(events))])
    }

    /// A short human summary, then the events.
    public static func text(_ result: SessionResult, manifest: StreamManifest) -> String {
        let s = result.summary
        var lines: [String] = []
        lines.append("trace \(result.traceName), abr \(result.rule), \(s.playedSegments) segments")
        var qoe = "QoE_lin            \(format2(s.qoeLin))"
        if let optimum = s.offlineOptimalQoeLin {
            qoe += "   (offline optimum \(format2(optimum))"
            if let fraction = s.fractionOfOptimum { qoe += ", \(format1(fraction * 100))%" }
            qoe += ")"
        }
        lines.append(qoe)
        lines.append("average bitrate    \(Int(s.averageBitrateKilobitsPerSecond.rounded())) kbps")
        lines.append(
            "rebuffering        \(format2(s.rebufferSeconds)) s in \(s.rebufferEvents) stalls (ratio \(format2(s.rebufferRatio * 100))%)")
        lines.append("start-up           \(format2(s.startupSeconds)) s")
        lines.append(
            "switches           \(s.switches) (total \(Int(s.switchMagnitudeKilobitsPerSecond.rounded())) kbps)")
        var counts = [Int](repeating: 0, count: manifest.levelCount)
        for level in result.playedLevels { counts[level] += 1 }
        lines.append(
            "levels played      "
                + counts.enumerated().filter { $0.element > 0 }.map { "\(manifest.levelNames[$0.offset]) x\($0.element)" }
                .joined(separator: ", "))
        if !result.events.isEmpty {
            lines.append("events:")
            for e in result.events {
                lines.append(
                    "  \(format2(e.time)) s  \(e.kind.rawValue) \(e.detail): position \(format2(e.positionBeforeSeconds)) -> \(format2(e.positionAfterSeconds)) s, "
                        + "\(e.playingBefore ? "playing" : "paused") -> \(e.playingAfter ? "playing" : "paused")")
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }
}

/// One decimal.
func format1(_ value: Double) -> String {
    let tenths = Int((value * 10).rounded())
    return "\(tenths < 0 ? "-" : "")\(abs(tenths) / 10).\(abs(tenths) % 10)"
}
