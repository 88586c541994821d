import HLS
import JSON

/// CODECS, RESOLUTION and FRAME-RATE of each variant against what its streams are.
enum DescriptionRules {
    static func check(_ context: AuditContext) -> [Finding] {
        var findings: [Finding] = []
        for (variant, audited) in context.variants {
            let measured = MeasuredDescription(context, variant: variant, audited: audited)
            findings += codecs(declared: variant.codecList, measured: measured, uri: audited.uri)
            findings += resolution(declared: variant.resolution, measured: measured.resolution, uri: audited.uri)
            if let declared = variant.frameRate, let rate = measured.framesPerSecond,
                abs(declared - rate) > max(0.01, rate * 0.002)
            {
                findings.append(
                    Finding(
                        .frameRateMismatch, playlist: audited.uri, message: "FRAME-RATE does not match the video",
                        measured: fixedNumber(rate, digits: 3), declared: fixedNumber(declared, digits: 3)))
            }
        }
        for (variant, audited) in context.iFrameVariants {
            var measured = MeasuredDescription()
            measured.collect(audited)
            measured.audioChecked = true
            findings += codecs(declared: variant.codecList, measured: measured, uri: audited.uri)
            findings += resolution(declared: variant.resolution, measured: measured.resolution, uri: audited.uri)
        }
        return findings
    }

    private static func resolution(declared: Resolution?, measured: Resolution?, uri: String) -> [Finding] {
        guard let declared, let measured, declared != measured else { return [] }
        return [
            Finding(
                .resolutionMismatch, playlist: uri, message: "RESOLUTION is not the cropped picture size of the SPS",
                measured: measured.description, declared: declared.description)
        ]
    }

    private static func codecs(declared: [String], measured: MeasuredDescription, uri: String) -> [Finding] {
        guard !measured.codecs.isEmpty, !declared.isEmpty else { return [] }
        let relevant = declared.filter { entry in
            let lower = entry.lowercased()
            if lower.hasPrefix("wvtt") || lower.hasPrefix("stpp") { return false }
            let isAudio = lower.hasPrefix("mp4a") || lower.hasPrefix("ac-3") || lower.hasPrefix("ec-3")
            return isAudio ? measured.audioChecked : measured.videoChecked
        }
        let unmatchedDeclared = relevant.filter { entry in !measured.codecs.contains { matches(entry, $0) } }
        let unmatchedMeasured = measured.codecs.filter { found in
            !relevant.contains { matches($0, found) } && (measured.audioChecked || !found.hasPrefix("mp4a"))
        }
        guard !unmatchedDeclared.isEmpty || !unmatchedMeasured.isEmpty else { return [] }
        return [
            Finding(
                .codecsMismatch, playlist: uri,
                message: "CODECS does not list exactly the formats present"
                    + (unmatchedDeclared.isEmpty
                        ? "" : " (declared, not found: \(unmatchedDeclared.joined(separator: ",")))")
                    + (unmatchedMeasured.isEmpty
                        ? "" : " (found, not declared: \(unmatchedMeasured.joined(separator: ",")))"),
                measured: measured.codecs.joined(separator: ","), declared: declared.joined(separator: ","))
        ]
    }

    /// One CODECS entry against one measured codec string: avc1/avc3 by profile, constraints and level;
    /// hvc1/hev1 by profile, tier and level; AAC by object type (HE-AAC 5/29 is carried as 2 in ADTS).
    static func matches(_ declared: String, _ measured: String) -> Bool {
        let d = declared.lowercased().split(separator: "."), m = measured.lowercased().split(separator: ".")
        guard let dKind = d.first, let mKind = m.first else { return false }
        switch (dKind, mKind) {
        case ("avc1", "avc1"), ("avc3", "avc1"):
            return d.count > 1 && m.count > 1 && d[1] == m[1]
        case ("hvc1", "hvc1"), ("hev1", "hvc1"):
            guard d.count > 3, m.count > 3 else { return false }
            return d[1].filter(\.isNumber) == m[1] && d[3] == m[3]
        case ("mp4a", "mp4a"):
            guard d.count > 2, m.count > 2 else { return d == m }
            return d[2] == m[2] || (m[2] == "2" && (d[2] == "5" || d[2] == "29"))
        default:
            return dKind == mKind && d == m
        }
    }
}

/// What a variant's streams are: codecs (its video and muxed audio, plus its audio rendition), cropped
/// picture size and frame rate (the most common per-segment value).
struct MeasuredDescription {
    var codecs: [String] = []
    var resolution: Resolution?
    var framesPerSecond: Double?
    /// False when the variant's audio rendition was not measured: audio entries are then not compared.
    var audioChecked = false
    /// False when no video frame was measured: video entries are then not compared.
    var videoChecked = false
    private var rates: [Double: Int] = [:]

    init() {}

    init(_ context: AuditContext, variant: Variant, audited: AuditedPlaylist) {
        collect(audited)
        let audioPlaylists = context.audioPlaylists(of: variant)
        for audio in audioPlaylists { collect(audio, ratesToo: false) }
        audioChecked = variant.audio == nil || audioPlaylists.contains { !$0.measured.isEmpty }
    }

    mutating func collect(_ audited: AuditedPlaylist, ratesToo: Bool = true) {
        for (_, _, facts) in audited.measured {
            for track in facts.tracks where (track.kind == .video || track.kind == .audio) && !track.frames.isEmpty {
                if track.kind == .video { videoChecked = true }
                if let text = track.codecString, !codecs.contains(text) { codecs.append(text) }
                if track.kind == .video, let video = track.video, resolution == nil {
                    resolution = Resolution(width: video.width, height: video.height)
                }
            }
            if ratesToo, let rate = facts.video?.framesPerSecond {
                rates[(rate * 1000).rounded() / 1000, default: 0] += 1
            }
        }
        if ratesToo { framesPerSecond = rates.max { $0.value < $1.value }?.key }
    }
}
