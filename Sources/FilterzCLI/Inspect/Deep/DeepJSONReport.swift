import CLIKit
import HLS
import Inspect
import JSON
import StreamAudit

/// The `deep` member of `inspect --deep --json`. Its lists stop after `ListingLimit.items` like every list of
/// `inspect`; a `truncated` member then gives their full lengths.
enum DeepJSONReport {
    static func value(_ report: AuditReport) -> JSONValue {
        let variants: [JSONValue] = report.variants.prefix(ListingLimit.items).map { variant in
            .object([
                ("uri", .string(variant.uri)),
                ("i_frames_only", .bool(variant.isIFrameVariant)),
                ("declared_bandwidth", integer(variant.declaredBandwidth)),
                ("measured_peak_bps", integer(variant.measuredPeakBitsPerSecond)),
                ("declared_average_bandwidth", integer(variant.declaredAverageBandwidth)),
                ("measured_average_bps", integer(variant.measuredAverageBitsPerSecond)),
                ("codecs_measured", .array(variant.codecsMeasured.map(JSONValue.string))),
                ("resolution_measured", variant.resolutionMeasured.map { .string($0.description) } ?? .null),
                ("frame_rate_measured", number(variant.frameRateMeasured)),
                ("idr_interval_s", number(variant.idrIntervalSeconds)),
                ("idr_interval_deviation_s", number(variant.idrIntervalDeviationSeconds)),
                ("segments_checked", .integer(variant.segmentsChecked)),
                ("segments", .integer(variant.segmentCount)),
            ])
        }
        let findings: [JSONValue] = report.findings.prefix(ListingLimit.items).map { finding in
            .object([
                ("severity", .string(finding.severity.rawValue)),
                ("code", .string(finding.code.rawValue)),
                ("rule", .string(finding.code.rule)),
                ("playlist", .string(finding.playlist)),
                ("segment", finding.segment.map(JSONValue.string) ?? .null),
                ("message", .string(finding.message)),
                ("measured", finding.measured.map(JSONValue.string) ?? .null),
                ("declared", finding.declared.map(JSONValue.string) ?? .null),
                ("fix", .string(finding.code.fix)),
            ])
        }
        var members: [(String, JSONValue)] = [("variants", .array(variants)), ("findings", .array(findings))]
        let truncated = [("variants", report.variants.count), ("findings", report.findings.count)]
            .filter { $0.1 > ListingLimit.items }.map { ($0.0, JSONValue.integer($0.1)) }
        if !truncated.isEmpty { members.append(("truncated", .object(truncated))) }
        return .object(members)
    }

    private static func integer(_ value: Int?) -> JSONValue { value.map(JSONValue.integer) ?? .null }

    private static func number(_ value: Double?) -> JSONValue {
        guard let value, value.isFinite else { return .null }
        return .number((value * 1000).rounded() / 1000)
    }
}
