import CLIKit
import Inspect
import JSON
import StreamAudit

/// The text of `inspect --deep`: a table per variant (declared against measured), then the findings under
/// "Must fix" and "Should fix", each with where, what was measured and declared, the rule and the fix.
enum DeepTextReport {
    static func lines(_ report: AuditReport) -> [String] {
        var lines = ["Deep checks (segments loaded and demuxed)"]
        var table = TextTable(header: [
            "VARIANT", "PEAK declared", "measured", "diff", "AVERAGE declared", "measured", "diff", "CODECS",
            "RESOLUTION",
            "FPS", "IDR every", "SEGMENTS",
        ])
        for variant in report.variants {
            table.append([
                variant.uri + (variant.isIFrameVariant ? " (I-frames)" : ""),
                variant.declaredBandwidth.map(DisplayFormat.bitrate) ?? "-",
                variant.measuredPeakBitsPerSecond.map(DisplayFormat.bitrate) ?? "-",
                VariantSummary.signedPercent(
                    measured: variant.measuredPeakBitsPerSecond, declared: variant.declaredBandwidth)
                    ?? "-",
                variant.declaredAverageBandwidth.map(DisplayFormat.bitrate) ?? "-",
                variant.measuredAverageBitsPerSecond.map(DisplayFormat.bitrate) ?? "-",
                VariantSummary.signedPercent(
                    measured: variant.measuredAverageBitsPerSecond, declared: variant.declaredAverageBandwidth) ?? "-",
                variant.codecsMeasured.isEmpty ? "-" : variant.codecsMeasured.joined(separator: ","),
                variant.resolutionMeasured?.description ?? "-",
                variant.frameRateMeasured.map(DisplayFormat.frameRate) ?? "-",
                idrText(variant),
                "\(variant.segmentsChecked)/\(variant.segmentCount)",
            ])
        }
        lines += table.lines(indent: 2)
        for severity in [FindingSeverity.must, .should] {
            let findings = report.findings.filter { $0.severity == severity }
            lines.append("")
            lines.append(
                (severity == .must ? "Must fix" : "Should fix") + " (\(findings.count))"
                    + (findings.isEmpty ? ": none" : ""))
            for finding in findings.prefix(ListingLimit.items) {
                let place = finding.playlist + (finding.segment.map { " " + $0 } ?? "")
                lines.append("  \(place): \(finding.message) [\(finding.code.rawValue)]")
                if finding.measured != nil || finding.declared != nil {
                    lines.append("    measured \(finding.measured ?? "-"), declared \(finding.declared ?? "-")")
                }
                lines.append("    rule: \(finding.code.rule)")
                lines.append("    fix: \(finding.code.fix)")
            }
            if let more = ListingLimit.more(findings.count - ListingLimit.items, "findings", indent: 2) {
                lines.append(more)
            }
        }
        return lines
    }

    /// `2.00 s ±0.00`, or `-` when no interval was measured.
    static func idrText(_ variant: VariantSummary) -> String {
        guard let average = variant.idrIntervalSeconds else { return "-" }
        return fixedNumber(average, digits: 2) + " s ±"
            + fixedNumber(variant.idrIntervalDeviationSeconds ?? 0, digits: 2)
    }
}
