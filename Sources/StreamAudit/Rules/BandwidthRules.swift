import HLS
import JSON

/// BANDWIDTH and AVERAGE-BANDWIDTH against what the segments measure (audio renditions included). A live
/// window is held to the live peak limit and not to the average, which describes the whole presentation.
enum BandwidthRules {
    /// VOD: peak within 10 % of BANDWIDTH; live: below 125 %. Average within 10 %; the peak at most twice it.
    static func check(_ context: AuditContext) -> [Finding] {
        var findings: [Finding] = []
        for (variant, audited) in context.variants {
            let measured = VariantBitrate(context, variant: variant, audited: audited)
            findings += check(
                uri: audited.uri, isLive: audited.isLive || !audited.holdsWholePresentation,
                declaredPeak: variant.bandwidth,
                declaredAverage: variant.averageBandwidth, measured: measured.peak, measuredAverage: measured.average)
        }
        for (variant, audited) in context.iFrameVariants {
            let measured = context.bitrates[audited.uri]
            findings += check(
                uri: audited.uri, isLive: audited.isLive || !audited.holdsWholePresentation,
                declaredPeak: variant.bandwidth,
                declaredAverage: variant.averageBandwidth, measured: measured?.peakBitsPerSecond,
                measuredAverage: measured?.averageBitsPerSecond)
        }
        return findings
    }

    private static func check(
        uri: String, isLive: Bool, declaredPeak: Int, declaredAverage: Int?, measured: Int?, measuredAverage: Int?
    ) -> [Finding] {
        var findings: [Finding] = []
        if declaredAverage == nil {
            findings.append(
                Finding(.averageMissing, playlist: uri, message: "the variant declares no AVERAGE-BANDWIDTH"))
        }
        if let measured, declaredPeak > 0 {
            let ratio = Double(measured) / Double(declaredPeak)
            let upper = isLive ? 1.25 : 1.10
            if ratio > upper {
                findings.append(
                    Finding(
                        .peakAboveDeclared, playlist: uri,
                        message:
                            "measured peak \(Percent.signed(ratio)) against BANDWIDTH (allowed: +\(Int((upper - 1) * 100)) %)",
                        measured: "\(measured)", declared: "\(declaredPeak)"))
            } else if !isLive, ratio < 0.90 {
                findings.append(
                    Finding(
                        .peakBelowDeclared, playlist: uri,
                        message: "measured peak \(Percent.signed(ratio)) against BANDWIDTH (allowed: -10 %)",
                        measured: "\(measured)", declared: "\(declaredPeak)"))
            }
        }
        if !isLive, let measuredAverage, let declaredAverage, declaredAverage > 0 {
            let ratio = Double(measuredAverage) / Double(declaredAverage)
            if abs(ratio - 1) > 0.10 {
                findings.append(
                    Finding(
                        .averageMismatch, playlist: uri,
                        message: "measured average \(Percent.signed(ratio)) against AVERAGE-BANDWIDTH (allowed: ±10 %)",
                        measured: "\(measuredAverage)", declared: "\(declaredAverage)"))
            }
        }
        if let measured, let measuredAverage, measuredAverage > 0, Double(measured) > 2 * Double(measuredAverage) {
            findings.append(
                Finding(
                    .peakOverTwiceAverage, playlist: uri,
                    message:
                        "the measured peak is \(fixedNumber(Double(measured) / Double(measuredAverage), digits: 2))× the measured average",
                    measured: "\(measured)", declared: "\(Int(saturating: 2 * Double(measuredAverage)))"))
        }
        return findings
    }
}

/// A variant's measured rates: its own segments plus the highest of the audio renditions it plays with.
struct VariantBitrate {
    var peak: Int?
    var average: Int?

    init(_ context: AuditContext, variant: Variant, audited: AuditedPlaylist) {
        let own = context.bitrates[audited.uri]
        let audio = context.audioPlaylists(of: variant).compactMap { context.bitrates[$0.uri] }
        peak = own?.peakBitsPerSecond.map {
            Int(saturating: Double($0) + Double(audio.compactMap(\.peakBitsPerSecond).max() ?? 0))
        }
        average = own?.averageBitsPerSecond.map {
            Int(saturating: Double($0) + Double(audio.compactMap(\.averageBitsPerSecond).max() ?? 0))
        }
    }
}

/// Number formatting shared by the messages.
enum Percent {
    /// `+12.3 %` / `-4.0 %` for a ratio of measured to declared.
    static func signed(_ ratio: Double) -> String {
        let percent = ((ratio - 1) * 1000).rounded() / 10
        return (percent >= 0 ? "+" : "") + fixedNumber(percent, digits: 1) + " %"
    }
}
