import HLS
import JSON
import Playback

/// Aggregates of a batch run, one row per rule, and their renderings.
public struct BatchReport: Sendable {
    public struct RuleRow: Sendable {
        public var rule: String
        public var meanQoE: Double
        public var medianQoE: Double
        /// Mean QoE over mean offline-optimal QoE (the "ratio of means"), percent.
        public var percentOfOptimumOfMeans: Double?
        /// Median over traces with a positive optimum of QoE / optimum, percent.
        public var medianPercentOfOptimum: Double?
        /// Mean of optimum − QoE (absolute gap).
        public var meanGapToOptimum: Double?
        public var averageBitrateKilobitsPerSecond: Double
        public var meanRebufferSeconds: Double
        public var totalRebufferSeconds: Double
        public var meanSwitches: Double
        /// Means over the traces of each live session's latency p50 and p95, seconds (live batches only).
        public var meanLatencyP50Seconds: Double?
        public var meanLatencyP95Seconds: Double?
    }

    public var rows: [RuleRow]
    public var meanOptimum: Double?
    public var traceCount: Int
    public let results: [BatchSimulation.TraceResult]
    public let rules: [ABRRuleKind]

    public init(results: [BatchSimulation.TraceResult], rules: [ABRRuleKind]) {
        self.results = results
        self.rules = rules
        traceCount = results.count
        let optima = results.compactMap { $0.offlineOptimum?.qoeLin }
        meanOptimum = optima.count == results.count && !optima.isEmpty ? mean(optima) : nil
        rows = rules.enumerated().map { r, rule in
            let summaries = results.map { $0.summaries[r] }
            let qoes = summaries.map(\.qoeLin)
            let meanQoE = mean(qoes)
            var ratios: [Double] = []
            var gaps: [Double] = []
            for s in summaries {
                if let optimum = s.offlineOptimalQoeLin {
                    gaps.append(optimum - s.qoeLin)
                    if optimum > 0 { ratios.append(s.qoeLin / optimum) }
                }
            }
            let rebuffers = summaries.map(\.rebufferSeconds)
            return RuleRow(
                rule: rule.rawValue, meanQoE: meanQoE, medianQoE: median(qoes),
                percentOfOptimumOfMeans: optima.count == results.count && mean(optima) > 0
                    ? meanQoE / mean(optima) * 100 : nil,
                medianPercentOfOptimum: ratios.isEmpty ? nil : median(ratios) * 100,
                meanGapToOptimum: gaps.count == results.count ? mean(gaps) : nil,
                averageBitrateKilobitsPerSecond: mean(summaries.map(\.averageBitrateKilobitsPerSecond)),
                meanRebufferSeconds: mean(rebuffers), totalRebufferSeconds: rebuffers.reduce(0, +),
                meanSwitches: mean(summaries.map { Double($0.switches) }),
                meanLatencyP50Seconds: Self.meanLatency(summaries, \.p50Seconds),
                meanLatencyP95Seconds: Self.meanLatency(summaries, \.p95Seconds))
        }
    }

    static func meanLatency(_ summaries: [QoESummary], _ field: KeyPath<LatencySummary, Double>) -> Double? {
        let values = summaries.compactMap { $0.latency?[keyPath: field] }
        return values.isEmpty ? nil : mean(values)
    }

    var isLive: Bool { rows.contains { $0.meanLatencyP50Seconds != nil } }

    /// Per-trace QoE side by side (one column per rule), then one summary row per rule.
    public func text() -> String {
        var lines: [String] = []
        let nameWidth = min(max(results.map(\.traceName.count).max() ?? 5, 5), 48)
        var header = pad("trace", nameWidth) + "  " + lpad("optimum", 9)
        for rule in rules { header += "  " + lpad(rule.rawValue, 10) }
        lines.append(header)
        for result in results {
            var line =
                pad(String(result.traceName.suffix(nameWidth)), nameWidth) + "  "
                + lpad(result.offlineOptimum.map { fixedNumber($0.qoeLin, digits: 2) } ?? "-", 9)
            for s in result.summaries { line += "  " + lpad(fixedNumber(s.qoeLin, digits: 2), 10) }
            lines.append(line)
        }
        lines.append("")
        lines.append(
            "\(traceCount) traces"
                + (meanOptimum.map { ", mean offline optimum QoE_lin \(fixedNumber($0, digits: 2))" } ?? ""))
        lines.append(
            pad("abr", 10) + lpad("mean QoE", 10) + lpad("median", 10) + lpad("% opt", 8) + lpad("med %", 8)
                + lpad("gap", 8) + lpad("kbps", 8) + lpad("rebuf s", 9) + lpad("switches", 10)
                + (isLive ? lpad("lat p50", 9) + lpad("lat p95", 9) : ""))
        for row in rows {
            lines.append(
                pad(row.rule, 10) + lpad(fixedNumber(row.meanQoE, digits: 2), 10)
                    + lpad(fixedNumber(row.medianQoE, digits: 2), 10)
                    + lpad(row.percentOfOptimumOfMeans.map { fixedNumber($0, digits: 1) } ?? "-", 8)
                    + lpad(row.medianPercentOfOptimum.map { fixedNumber($0, digits: 1) } ?? "-", 8)
                    + lpad(row.meanGapToOptimum.map { fixedNumber($0, digits: 2) } ?? "-", 8)
                    + lpad(String(Int(row.averageBitrateKilobitsPerSecond.rounded())), 8)
                    + lpad(fixedNumber(row.meanRebufferSeconds, digits: 2), 9)
                    + lpad(fixedNumber(row.meanSwitches, digits: 1), 10)
                    + (isLive
                        ? lpad(row.meanLatencyP50Seconds.map { fixedNumber($0, digits: 2) } ?? "-", 9)
                            + lpad(row.meanLatencyP95Seconds.map { fixedNumber($0, digits: 2) } ?? "-", 9) : ""))
        }
        let beyond = results.filter { $0.offlineOptimumError != nil }
        if !beyond.isEmpty {
            lines.append(
                "offline optimum not computed for \(beyond.count) trace\(beyond.count == 1 ? "" : "s") (optimum -):")
            for result in beyond.prefix(10) {
                lines.append("  \(result.traceName): \(result.offlineOptimumError!)")
            }
            if beyond.count > 10 { lines.append("  … and \(beyond.count - 10) more") }
        }
        lines.append("% opt = mean QoE / mean optimum; med % = median of per-trace QoE / optimum (optimum > 0);")
        lines.append(
            "gap = mean of optimum - QoE; kbps, rebuf s, switches\(isLive ? ", lat p50, lat p95 (s behind the live edge)" : "") = means per trace."
        )
        return lines.joined(separator: "\n") + "\n"
    }

    public func json() -> JSONValue {
        .object([
            ("traces", .integer(traceCount)),
            ("mean_offline_optimal_qoe_lin", .optionalNumber(meanOptimum)),
            (
                "rules",
                .array(
                    rows.map { row in
                        .object(
                            [
                                ("abr", .string(row.rule)),
                                ("mean_qoe_lin", .rounded(row.meanQoE)),
                                ("median_qoe_lin", .rounded(row.medianQoE)),
                                ("percent_of_optimum", .optionalNumber(row.percentOfOptimumOfMeans)),
                                ("median_percent_of_optimum", .optionalNumber(row.medianPercentOfOptimum)),
                                ("mean_gap_to_optimum", .optionalNumber(row.meanGapToOptimum)),
                                ("avg_bitrate_kbps", .rounded(row.averageBitrateKilobitsPerSecond)),
                                ("mean_rebuffer_s", .rounded(row.meanRebufferSeconds)),
                                ("mean_switches", .rounded(row.meanSwitches)),
                            ] + latencyMembers(row))
                    })
            ),
            ("per_trace", .array(results.map(perTraceJSON))),
        ])
    }
}

extension BatchReport {
    /// `mean_latency_p50_s` and `mean_latency_p95_s` of a live batch's row.
    func latencyMembers(_ row: RuleRow) -> [(String, JSONValue)] {
        guard let p50 = row.meanLatencyP50Seconds, let p95 = row.meanLatencyP95Seconds else { return [] }
        return [("mean_latency_p50_s", .rounded(p50)), ("mean_latency_p95_s", .rounded(p95))]
    }

    /// One trace's entry of `per_trace`; `offline_optimum_error` only when its optimum is beyond its limits.
    func perTraceJSON(_ result: BatchSimulation.TraceResult) -> JSONValue {
        var members: [(String, JSONValue)] = [
            ("trace", .string(result.traceName)),
            ("offline_optimal_qoe_lin", .optionalNumber(result.offlineOptimum?.qoeLin)),
            ("offline_optimal_states", .optionalNumber(result.offlineOptimum.map { Double($0.stateCount) })),
        ]
        if let error = result.offlineOptimumError {
            members.append(("offline_optimum_error", .string(error.description)))
        }
        let runs: [JSONValue] = zip(rules, result.summaries).enumerated().map { i, pair in
            .object(
                [
                    ("abr", .string(pair.0.rawValue)),
                    ("qoe_lin", .rounded(pair.1.qoeLin)),
                    ("rebuffer_s", .rounded(pair.1.rebufferSeconds)),
                    ("avg_bitrate_kbps", .rounded(pair.1.averageBitrateKilobitsPerSecond)),
                    ("switches", .integer(pair.1.switches)),
                ]
                    + (pair.1.latency.map {
                        [
                            ("latency_p50_s", JSONValue.rounded($0.p50Seconds)),
                            ("latency_p95_s", .rounded($0.p95Seconds)),
                        ]
                    } ?? []) + [
                        ("levels", .array(result.playedLevels[i].map { .integer($0) }))
                    ])
        }
        members.append(("results", .array(runs)))
        return .object(members)
    }
}

func mean(_ values: [Double]) -> Double { values.isEmpty ? 0 : values.reduce(0, +) / Double(values.count) }

func median(_ values: [Double]) -> Double {
    guard !values.isEmpty else { return 0 }
    let sorted = values.sorted()
    let mid = sorted.count / 2
    return sorted.count % 2 == 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2
}

func pad(_ text: String, _ width: Int) -> String {
    text.count >= width ? text : text + String(repeating: " ", count: width - text.count)
}

func lpad(_ text: String, _ width: Int) -> String {
    text.count >= width ? text : String(repeating: " ", count: width - text.count) + text
}
