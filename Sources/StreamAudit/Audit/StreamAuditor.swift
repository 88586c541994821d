import HLS

/// Runs every rule family over measured facts and summarises each variant: a pure function of its input.
///
///     let report = StreamAuditor.audit(input)
///     report.findings.filter { $0.severity == .must }   // what makes `inspect --deep` exit 1
public enum StreamAuditor {
    /// The rule families, each a file in `Rules/`. Add a family here to add its rules.
    static let families: [@Sendable (AuditContext) -> [Finding]] = [
        LoadingRules.check, BandwidthRules.check, DurationRules.check, KeyframeRules.check, TimelineRules.check,
        DescriptionRules.check, AlignmentRules.check, SubtitleRules.check, IFrameRules.check, InitSectionRules.check,
    ]

    public static func audit(_ input: AuditInput) -> AuditReport {
        let context = AuditContext(input)
        var findings: [Finding] = []
        for family in families { findings += family(context) }
        findings.sort { $0.severity < $1.severity }  // stable: must first, each family's order kept
        return AuditReport(variants: summaries(context), findings: findings)
    }

    private static func summaries(_ context: AuditContext) -> [VariantSummary] {
        var result: [VariantSummary] = []
        for audited in context.input.playlists {
            var summary = VariantSummary(uri: audited.uri)
            let measured: MeasuredDescription
            switch audited.role {
            case .variant(let variant):
                let bitrate = VariantBitrate(context, variant: variant, audited: audited)
                summary.declaredBandwidth = variant.bandwidth
                summary.declaredAverageBandwidth = variant.averageBandwidth
                summary.measuredPeakBitsPerSecond = bitrate.peak
                summary.measuredAverageBitsPerSecond = bitrate.average
                measured = MeasuredDescription(context, variant: variant, audited: audited)
            case .iFrameVariant(let variant):
                summary.isIFrameVariant = true
                summary.declaredBandwidth = variant.bandwidth
                summary.declaredAverageBandwidth = variant.averageBandwidth
                summary.measuredPeakBitsPerSecond = context.bitrates[audited.uri]?.peakBitsPerSecond
                summary.measuredAverageBitsPerSecond = context.bitrates[audited.uri]?.averageBitsPerSecond
                var description = MeasuredDescription()
                description.collect(audited, ratesToo: false)
                measured = description
            case .standalone:
                summary.measuredPeakBitsPerSecond = context.bitrates[audited.uri]?.peakBitsPerSecond
                summary.measuredAverageBitsPerSecond = context.bitrates[audited.uri]?.averageBitsPerSecond
                var description = MeasuredDescription()
                description.collect(audited)
                measured = description
            case .rendition:
                continue
            }
            summary.codecsMeasured = measured.codecs
            summary.resolutionMeasured = measured.resolution
            summary.frameRateMeasured = measured.framesPerSecond
            if !audited.playlist.iFramesOnly, let intervals = IDRIntervals(audited) {
                summary.idrIntervalSeconds = intervals.averageSeconds
                summary.idrIntervalDeviationSeconds = intervals.deviationSeconds
            }
            summary.segmentsChecked = audited.measured.count
            summary.segmentCount = audited.playlist.segments.count
            summary.samples = context.bitrates[audited.uri]?.samples ?? []
            result.append(summary)
        }
        return result
    }
}

/// The result: one summary per variant (and I-frame variant), then the findings, `must` first.
public struct AuditReport: Sendable {
    public var variants: [VariantSummary]
    public var findings: [Finding]

    public var mustCount: Int { findings.filter { $0.severity == .must }.count }
    public var shouldCount: Int { findings.filter { $0.severity == .should }.count }
}

/// Declared against measured for one variant.
public struct VariantSummary: Hashable, Sendable {
    public var uri: String
    public var isIFrameVariant = false
    public var declaredBandwidth: Int?
    public var measuredPeakBitsPerSecond: Int?
    public var declaredAverageBandwidth: Int?
    public var measuredAverageBitsPerSecond: Int?
    public var codecsMeasured: [String] = []
    public var resolutionMeasured: Resolution?
    public var frameRateMeasured: Double?
    public var idrIntervalSeconds: Double?
    public var idrIntervalDeviationSeconds: Double?
    public var segmentsChecked = 0
    public var segmentCount = 0
    /// The variant's own segments' bit rates over time (audio not added), for charts.
    public var samples: [BitrateMeasurement.Sample] = []

    public init(uri: String) { self.uri = uri }

    /// `+3.2 %`: measured against declared, nil when either is unknown.
    public static func signedPercent(measured: Int?, declared: Int?) -> String? {
        guard let measured, let declared, declared > 0 else { return nil }
        return Percent.signed(Double(measured) / Double(declared))
    }
}
