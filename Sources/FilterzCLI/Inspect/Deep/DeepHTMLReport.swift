import CLIKit
import Inspect
import JSON
import Markup
import Media
import Platform
import StreamAudit

/// `inspect --deep --report FILE`: one self-contained HTML page (inline CSS and SVG, no external assets)
/// with the variant table, a bitrate-over-time chart per variant (declared lines over measured bars) and
/// the findings.
enum DeepHTMLReport {
    static func write(_ report: AuditReport, title: String, to path: String) throws(CLIError) {
        do throws(AtomicFile.WriteError) {
            try AtomicFile.write(page(report, title: title), to: path)
        } catch {
            throw .failure(error.description)
        }
    }

    static func page(_ report: AuditReport, title: String) -> String {
        var html = """
            <!DOCTYPE html>
            <html lang="en"><head><meta charset="utf-8">
            <title>inspect --deep: \(HTMLText.escape(title))</title>
            <style>
            body{font:14px/1.4 system-ui,sans-serif;margin:24px;color:#1d2330;background:#fff}
            h1{font-size:20px}h2{font-size:16px;margin-top:28px}
            table{border-collapse:collapse;margin:8px 0}th,td{border:1px solid #ccd;padding:4px 8px;text-align:left}
            th{background:#eef1f6}td.num{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
            figure.chart{margin:0;display:inline-block}
            .must{color:#b00020}.should{color:#8a5a00}.ok{color:#1b7f3b}
            .finding{border-left:4px solid #b00020;padding:4px 10px;margin:8px 0;background:#fff5f6}
            .finding.should{border-color:#d89a00;background:#fffaf0}
            .fix{color:#333}code{background:#eef1f6;padding:0 3px}
            svg{background:#fafbfd;border:1px solid #dde}
            </style></head><body>
            <h1>inspect --deep: \(HTMLText.escape(title))</h1>
            <p class="\(report.mustCount > 0 ? "must" : "ok")">\(report.mustCount) must fix, \(report.shouldCount) should fix</p>
            <h2>Variants</h2>
            <table><tr><th>Variant</th><th>BANDWIDTH</th><th>Measured peak</th><th>Diff</th><th>AVERAGE-BANDWIDTH</th>
            <th>Measured average</th><th>Diff</th><th>Codecs</th><th>Resolution</th><th>FPS</th><th>IDR interval</th><th>Segments</th></tr>

            """
        for variant in report.variants {
            let peakDiff = VariantSummary.signedPercent(
                measured: variant.measuredPeakBitsPerSecond, declared: variant.declaredBandwidth)
            let averageDiff = VariantSummary.signedPercent(
                measured: variant.measuredAverageBitsPerSecond, declared: variant.declaredAverageBandwidth)
            let numbers: [Int?] = [
                variant.declaredBandwidth, variant.measuredPeakBitsPerSecond, variant.declaredAverageBandwidth,
                variant.measuredAverageBitsPerSecond,
            ]
            let texts: [String] = numbers.map { $0.map(String.init) ?? "-" }
            let cells: [String] = [texts[0], texts[1], peakDiff ?? "-", texts[2], texts[3], averageDiff ?? "-"]
            html += "<tr><td>\(HTMLText.escape(variant.uri))\(variant.isIFrameVariant ? " (I-frames)" : "")</td>"
            html += cells.map { "<td class=\"num\">\(HTMLText.escape($0))</td>" }.joined()
            html += "<td>\(HTMLText.escape(variant.codecsMeasured.joined(separator: ",")))</td>"
            html += "<td>\(HTMLText.escape(variant.resolutionMeasured?.description ?? "-"))</td>"
            html += "<td class=\"num\">\(variant.frameRateMeasured.map(DisplayFormat.frameRate) ?? "-")</td>"
            html += "<td class=\"num\">\(HTMLText.escape(DeepTextReport.idrText(variant)))</td>"
            html += "<td class=\"num\">\(variant.segmentsChecked)/\(variant.segmentCount)</td></tr>\n"
        }
        html += "</table>\n<h2>Bitrate over time</h2>\n"
        html += "<p>Bars: each segment's bits over its EXTINF (this playlist only). Lines: BANDWIDTH (solid) and "
        html += "AVERAGE-BANDWIDTH (dashed) as declared, which include the audio rendition.</p>\n"
        for variant in report.variants where !variant.samples.isEmpty {
            html +=
                "<h3>\(HTMLText.escape(variant.uri))</h3>\n<figure class=\"chart\">" + chart(variant) + "</figure>\n"
        }
        for severity in [FindingSeverity.must, .should] {
            let findings = report.findings.filter { $0.severity == severity }
            html +=
                "<h2 class=\"\(severity.rawValue)\">\(severity == .must ? "Must fix" : "Should fix") (\(findings.count))</h2>\n"
            for finding in findings.prefix(ListingLimit.items) {
                html += "<div class=\"finding \(severity.rawValue)\"><b>\(HTMLText.escape(finding.playlist))"
                html += finding.segment.map { " " + HTMLText.escape($0) } ?? ""
                html += "</b>: \(HTMLText.escape(finding.message)) <code>\(finding.code.rawValue)</code><br>"
                if finding.measured != nil || finding.declared != nil {
                    html +=
                        "measured \(HTMLText.escape(finding.measured ?? "-")), declared \(HTMLText.escape(finding.declared ?? "-"))<br>"
                }
                html +=
                    "rule: \(HTMLText.escape(finding.code.rule))<br><span class=\"fix\">fix: \(HTMLText.escape(finding.code.fix))</span></div>\n"
            }
        }
        return html + "</body></html>\n"
    }

    /// Bars a chart draws at most: about one per pixel of its width.
    static let maximumBars = 640

    /// `samples` as at most `maximum` bars: runs of consecutive samples merged into one bar spanning them at
    /// their highest bitrate, so a peak stays visible however many segments there are.
    static func bars(_ samples: [BitrateMeasurement.Sample], maximum: Int) -> [BitrateMeasurement.Sample] {
        guard samples.count > maximum else { return samples }
        let run = (samples.count + maximum - 1) / maximum
        return stride(from: 0, to: samples.count, by: run).map { first in
            let merged = samples[first..<min(first + run, samples.count)]
            let start = merged.first!.startSeconds
            let end = merged.map { $0.startSeconds + $0.durationSeconds }.max()!
            return BitrateMeasurement.Sample(
                startSeconds: start, durationSeconds: end - start, bitsPerSecond: merged.map(\.bitsPerSecond).max()!)
        }
    }

    /// An inline SVG: measured bars per segment (merged down to `maximumBars`), declared lines across.
    static func chart(_ variant: VariantSummary) -> String {
        let width = 720.0, height = 200.0, left = 70.0, bottom = 24.0, top = 10.0
        let totalSeconds = variant.samples.map { $0.startSeconds + $0.durationSeconds }.max() ?? 1
        let highest = Double(
            ([variant.declaredBandwidth ?? 0, variant.declaredAverageBandwidth ?? 0]
                + variant.samples.map(\.bitsPerSecond)).max() ?? 1)
        let scaleY = (height - bottom - top) / max(1, highest * 1.1)
        let scaleX = (width - left - 10) / max(0.001, totalSeconds)
        func y(_ bits: Double) -> String { fixedNumber(height - bottom - bits * scaleY, digits: 1) }
        var svg =
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(Int(width))\" height=\"\(Int(height))\" viewBox=\"0 0 \(Int(width)) \(Int(height))\" role=\"img\">"
        svg +=
            "<line x1=\"\(left)\" y1=\"\(height - bottom)\" x2=\"\(width - 10)\" y2=\"\(height - bottom)\" stroke=\"#667\"/>"
        for sample in bars(variant.samples, maximum: maximumBars) {
            let x = left + sample.startSeconds * scaleX
            let barWidth = max(1, sample.durationSeconds * scaleX - 1)
            let barHeight = Double(sample.bitsPerSecond) * scaleY
            svg +=
                "<rect x=\"\(fixedNumber(x, digits: 1))\" y=\"\(y(Double(sample.bitsPerSecond)))\" width=\"\(fixedNumber(barWidth, digits: 1))\" height=\"\(fixedNumber(barHeight, digits: 1))\" fill=\"#5b8def\"/>"
        }
        if let declared = variant.declaredBandwidth {
            svg +=
                "<line x1=\"\(left)\" y1=\"\(y(Double(declared)))\" x2=\"\(width - 10)\" y2=\"\(y(Double(declared)))\" stroke=\"#b00020\" stroke-width=\"2\"/>"
            svg +=
                "<text x=\"4\" y=\"\(y(Double(declared)))\" font-size=\"11\" fill=\"#b00020\">\(DisplayFormat.bitrate(declared))</text>"
        }
        if let average = variant.declaredAverageBandwidth {
            svg +=
                "<line x1=\"\(left)\" y1=\"\(y(Double(average)))\" x2=\"\(width - 10)\" y2=\"\(y(Double(average)))\" stroke=\"#d89a00\" stroke-width=\"2\" stroke-dasharray=\"6 4\"/>"
        }
        svg += "<text x=\"\(left)\" y=\"\(Int(height) - 6)\" font-size=\"11\">0 s</text>"
        svg +=
            "<text x=\"\(Int(width) - 60)\" y=\"\(Int(height) - 6)\" font-size=\"11\">\(fixedNumber(totalSeconds, digits: 1)) s</text>"
        return svg + "</svg>"
    }

}
