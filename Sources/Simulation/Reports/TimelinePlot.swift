import Foundation
import JSON
import Markup

/// An SVG timeline of one session, readable without the numbers: the trace's bandwidth (shaded) with the
/// selected bitrate over it (top), the buffer level against the cap (bottom), stalls shaded red across both,
/// and a labelled marker for every viewer action (rotation, manual pick, seek, subtitles).
public enum TimelinePlot {
    static let width = 1000.0
    static let left = 70.0
    static let right = 30.0
    static let top = 60.0
    static let panelHeight = 180.0
    static let gap = 50.0

    public static func svg(
        _ result: SessionResult, manifest: StreamManifest, trace: NetworkTrace, actions: [ViewerAction] = []
    ) -> String {
        let end = max(result.endSeconds, 1)
        let plotWidth = width - left - right
        let height = top + 2 * panelHeight + gap + 70
        func x(_ t: Double) -> Double { left + plotWidth * min(max(t / end, 0), 1) }

        // Bandwidth steps of the (looped) trace over the session.
        var bandwidth: [(Double, Double)] = []
        var t = 0.0
        var i = 0
        while t < end && !trace.periods.isEmpty {
            let p = trace.periods[i % trace.periods.count]
            bandwidth.append((t, p.bandwidthKilobitsPerSecond / 1000))
            t += p.durationMilliseconds / 1000
            i += 1
            if i > 200_000 { break }
        }
        let maxBitrate = (manifest.bitratesKilobitsPerSecond.last ?? 1) / 1000
        let peak = bandwidth.map(\.1).max() ?? maxBitrate
        let rateMax = niceCeiling(min(max(maxBitrate * 1.5, min(peak, maxBitrate * 4)), max(peak, maxBitrate * 1.5)))
        let rateTop = top
        func yRate(_ mbps: Double) -> Double { rateTop + panelHeight * (1 - min(mbps, rateMax) / rateMax) }
        let bufferTop = top + panelHeight + gap
        let bufferMax = niceCeiling(max(result.bufferTimeline.map(\.level).max() ?? 1, 1))
        func yBuffer(_ s: Double) -> Double { bufferTop + panelHeight * (1 - min(max(s, 0), bufferMax) / bufferMax) }

        var svg = ""
        svg += "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(n(width))\" height=\"\(n(height))\" "
        svg +=
            "viewBox=\"0 0 \(n(width)) \(n(height))\" font-family=\"Helvetica, Arial, sans-serif\" font-size=\"12\">\n"
        svg += "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
        let s = result.summary
        var title =
            "\(HTMLText.escape(result.traceName)) · \(HTMLText.escape(result.rule)) · QoE_lin \(fixedNumber(s.qoeLin, digits: 2))"
        if let optimum = s.constrainedOptimalQoeLin {
            title += " (optimum under the viewer's actions \(fixedNumber(optimum, digits: 2)))"
        } else if let optimum = s.offlineOptimalQoeLin {
            title += " (optimum \(fixedNumber(optimum, digits: 2)))"
        }
        title += " · rebuffer \(fixedNumber(s.rebufferSeconds, digits: 2)) s · \(s.switches) switches"
        svg += "<text x=\"\(n(left))\" y=\"24\" font-size=\"15\" font-weight=\"bold\">\(title)</text>\n"

        // Stalls, shaded across both panels.
        for event in result.events where event.kind == .stall {
            let duration = event.durationSeconds ?? 0
            svg +=
                "<rect x=\"\(n(x(event.time)))\" y=\"\(n(top))\" width=\"\(n(max(x(event.time + duration) - x(event.time), 1.5)))\" "
            svg +=
                "height=\"\(n(2 * panelHeight + gap))\" fill=\"#e53935\" fill-opacity=\"0.18\"><title>stall \(fixedNumber(duration, digits: 2)) s</title></rect>\n"
        }

        // Panel frames, grids and axes.
        for (panelTop, maxValue, unit) in [(rateTop, rateMax, "Mbps"), (bufferTop, bufferMax, "s")] {
            svg +=
                "<rect x=\"\(n(left))\" y=\"\(n(panelTop))\" width=\"\(n(plotWidth))\" height=\"\(n(panelHeight))\" fill=\"none\" stroke=\"#999\"/>\n"
            for k in 0...4 {
                let value = maxValue * Double(k) / 4
                let y = panelTop + panelHeight * (1 - Double(k) / 4)
                svg +=
                    "<line x1=\"\(n(left))\" y1=\"\(n(y))\" x2=\"\(n(left + plotWidth))\" y2=\"\(n(y))\" stroke=\"#eee\"/>\n"
                svg +=
                    "<text x=\"\(n(left - 6))\" y=\"\(n(y + 4))\" text-anchor=\"end\" fill=\"#555\">\(fixedNumber(value, digits: 1)) \(unit)</text>\n"
            }
        }
        let step = niceStep(end / 10)
        var tick = 0.0
        while tick <= end + 1e-9 {
            let xt = x(tick)
            svg +=
                "<line x1=\"\(n(xt))\" y1=\"\(n(bufferTop + panelHeight))\" x2=\"\(n(xt))\" y2=\"\(n(bufferTop + panelHeight + 5))\" stroke=\"#999\"/>\n"
            svg +=
                "<text x=\"\(n(xt))\" y=\"\(n(bufferTop + panelHeight + 18))\" text-anchor=\"middle\" fill=\"#555\">\(Int(tick.rounded())) s</text>\n"
            tick += step
        }
        svg +=
            "<text x=\"\(n(left + plotWidth / 2))\" y=\"\(n(bufferTop + panelHeight + 36))\" text-anchor=\"middle\" fill=\"#333\">time (virtual seconds)</text>\n"
        svg +=
            "<text x=\"\(n(left + 6))\" y=\"\(n(rateTop + 14))\" fill=\"#333\" font-weight=\"bold\">network bandwidth and selected bitrate</text>\n"
        svg +=
            "<text x=\"\(n(left + 6))\" y=\"\(n(bufferTop + 14))\" fill=\"#333\" font-weight=\"bold\">buffer level</text>\n"

        // Bandwidth (shaded steps).
        if !bandwidth.isEmpty {
            var path = "M\(n(x(0))),\(n(yRate(0)))"
            for (index, point) in bandwidth.enumerated() {
                let next = index + 1 < bandwidth.count ? bandwidth[index + 1].0 : end
                path += " L\(n(x(point.0))),\(n(yRate(point.1))) L\(n(x(next))),\(n(yRate(point.1)))"
            }
            path += " L\(n(x(end))),\(n(yRate(0))) Z"
            svg +=
                "<path d=\"\(path)\" fill=\"#90caf9\" fill-opacity=\"0.55\" stroke=\"#64b5f6\" stroke-width=\"0.8\"/>\n"
        }
        // Selected bitrate: the level being fetched, from each request to the next.
        if !result.segments.isEmpty {
            var path = ""
            for (index, segment) in result.segments.enumerated() {
                let start = segment.requestTimeSeconds
                let stop =
                    index + 1 < result.segments.count
                    ? result.segments[index + 1].requestTimeSeconds
                    : segment.requestTimeSeconds + segment.downloadSeconds
                let y = yRate(manifest.bitratesKilobitsPerSecond[segment.variant] / 1000)
                path += (path.isEmpty ? "M" : " L") + "\(n(x(start))),\(n(y)) L\(n(x(stop))),\(n(y))"
            }
            svg += "<path d=\"\(path)\" fill=\"none\" stroke=\"#ef6c00\" stroke-width=\"2.2\"/>\n"
        }
        // Ladder rungs, labelled on the right.
        for (level, kbps) in manifest.bitratesKilobitsPerSecond.enumerated() where kbps / 1000 <= rateMax {
            let y = yRate(kbps / 1000)
            svg +=
                "<line x1=\"\(n(left))\" y1=\"\(n(y))\" x2=\"\(n(left + plotWidth))\" y2=\"\(n(y))\" stroke=\"#ef6c00\" stroke-opacity=\"0.15\" stroke-dasharray=\"2 4\"/>\n"
            svg +=
                "<text x=\"\(n(left + plotWidth + 3))\" y=\"\(n(y + 4))\" font-size=\"9\" fill=\"#ef6c00\">\(HTMLText.escape(manifest.levelNames[level]))</text>\n"
        }
        // Buffer level and cap.
        if !result.bufferTimeline.isEmpty {
            var path = "M\(n(x(0))),\(n(yBuffer(0)))"
            for point in result.bufferTimeline { path += " L\(n(x(point.time))),\(n(yBuffer(point.level)))" }
            svg += "<path d=\"\(path)\" fill=\"none\" stroke=\"#2e7d32\" stroke-width=\"1.8\"/>\n"
        }
        if let cap = result.bufferCapSeconds, cap <= bufferMax {
            svg +=
                "<line x1=\"\(n(left))\" y1=\"\(n(yBuffer(cap)))\" x2=\"\(n(left + plotWidth))\" y2=\"\(n(yBuffer(cap)))\" stroke=\"#2e7d32\" stroke-dasharray=\"6 4\" stroke-opacity=\"0.6\"/>\n"
            svg +=
                "<text x=\"\(n(left + plotWidth - 4))\" y=\"\(n(yBuffer(cap) - 4))\" text-anchor=\"end\" fill=\"#2e7d32\" font-size=\"10\">buffer cap</text>\n"
        }

        // Viewer actions.
        for (index, event) in result.events.enumerated() where event.kind != .stall {
            let xe = x(event.time)
            let colour: String
            let label: String
            switch event.kind {
            case .rotate:
                colour = "#6a1b9a"
                label = "⟳ \(event.detail)"
            case .select:
                colour = "#00838f"
                label = "pick \(event.detail)"
            case .seek:
                colour = "#c62828"
                label = "⇥ seek \(event.detail)"
            case .subtitles:
                colour = "#555555"
                label = "CC \(event.detail)"
            case .stall: continue
            }
            let labelY = top - 6 - Double(index % 2) * 14
            svg +=
                "<line x1=\"\(n(xe))\" y1=\"\(n(top - 4))\" x2=\"\(n(xe))\" y2=\"\(n(bufferTop + panelHeight))\" stroke=\"\(colour)\" stroke-width=\"1.5\" stroke-dasharray=\"5 3\"/>\n"
            svg +=
                "<text x=\"\(n(xe + 3))\" y=\"\(n(labelY))\" fill=\"\(colour)\" font-size=\"11\">\(HTMLText.escape(label))</text>\n"
        }

        // Legend.
        let legendY = height - 14
        let items: [(String, String, Bool)] = [
            ("#90caf9", "trace bandwidth", true), ("#ef6c00", "selected bitrate", false),
            ("#2e7d32", "buffer level", false), ("#e53935", "stall", true), ("#6a1b9a", "rotation", false),
            ("#00838f", "manual quality pick", false), ("#c62828", "seek", false),
        ]
        var lx = left
        for (colour, name, filled) in items {
            if filled {
                svg +=
                    "<rect x=\"\(n(lx))\" y=\"\(n(legendY - 9))\" width=\"14\" height=\"10\" fill=\"\(colour)\" fill-opacity=\"0.5\"/>\n"
            } else {
                svg +=
                    "<line x1=\"\(n(lx))\" y1=\"\(n(legendY - 4))\" x2=\"\(n(lx + 14))\" y2=\"\(n(legendY - 4))\" stroke=\"\(colour)\" stroke-width=\"2.5\"/>\n"
            }
            svg += "<text x=\"\(n(lx + 18))\" y=\"\(n(legendY))\" fill=\"#333\">\(name)</text>\n"
            lx += 24 + Double(name.count) * 6.5
        }
        svg += "</svg>\n"
        return svg
    }

    /// Coordinates with one decimal.
    static func n(_ value: Double) -> String { fixedNumber(value, digits: 1) }

    static func niceStep(_ raw: Double) -> Double {
        let candidates: [Double] = [1, 2, 5, 10, 15, 20, 30, 60, 120, 300, 600, 1200, 3600]
        return candidates.first { $0 >= raw } ?? 3600
    }

    static func niceCeiling(_ value: Double) -> Double {
        let candidates: [Double] = [
            1, 2, 4, 5, 6, 8, 10, 12, 16, 20, 24, 30, 40, 50, 60, 80, 100, 120, 160, 200, 300, 400, 500, 600, 800, 1000,
        ]
        return candidates.first { $0 >= value } ?? (value / 100).rounded(.up) * 100
    }
}
