import HLS
import JSON

/// Each I-frame playlist range holds one whole IDR access unit, outside the init section, that is an IDR of
/// the main variant (RFC 8216bis §4.4.3.6).
enum IFrameRules {
    static func check(_ context: AuditContext) -> [Finding] {
        var findings: [Finding] = []
        for audited in context.input.playlists where audited.playlist.iFramesOnly {
            let main = mainIDRs(context, for: audited)
            for (index, (segment, observation)) in zip(audited.playlist.segments, audited.segments).enumerated() {
                let label = segment.byteRange.map { "\(segment.uri) [\($0)]" } ?? segment.uri
                if case .unreadable(let reason) = observation.outcome {
                    findings.append(
                        Finding(
                            .iFrameRangeNotIDR, playlist: audited.uri, segment: label,
                            message: "the range does not demux on its own: \(reason)", measured: "no frame",
                            declared: "one whole IDR"))
                    continue
                }
                // Fragments the init section does not describe are reported by the init-section rule.
                guard let facts = observation.facts, !(facts.tracks.isEmpty && !facts.fragmentTrackIDs.isEmpty) else {
                    continue
                }
                let frames = facts.video?.frames ?? []
                var problem: String?
                if let map = audited.playlist.map(inEffectAt: index), map.uri == segment.uri,
                    let mapRange = map.byteRange, let range = segment.byteRange,
                    (range.offset ?? 0) < (mapRange.offset ?? 0) + mapRange.length
                {
                    problem = "the range overlaps the init section"
                } else if frames.count != 1 {
                    problem = "the range holds \(frames.count) video frames, not one"
                } else if !frames[0].isIDR {
                    problem = "the frame in the range is not an IDR"
                } else if let pts = frames[0].presentationTime, let video = facts.video, let main {
                    let seconds = video.seconds(pts)
                    if let idr = main.first(where: { abs($0.seconds - seconds) < 0.001 }) {
                        if frames[0].size < idr.size {
                            problem = "the range cuts the IDR short (\(frames[0].size) of \(idr.size) bytes)"
                        }
                    } else {
                        problem = "no IDR of the main variant is at \(fixedNumber(seconds, digits: 3)) s"
                    }
                }
                if let problem {
                    findings.append(
                        Finding(
                            .iFrameRangeNotIDR, playlist: audited.uri, segment: label, message: problem,
                            measured: frames.first.map {
                                $0.isIDR ? "IDR, \($0.size) bytes" : "non-IDR, \($0.size) bytes"
                            } ?? "no frame",
                            declared: "one whole IDR"))
                }
            }
        }
        return findings
    }

    /// The IDRs (time, size) of the variant the I-frame playlist belongs to: the one whose segments it points
    /// into, else (its I-frames are resources of their own, as an encrypted ladder's are) the only variant
    /// served from the same folder.
    private static func mainIDRs(_ context: AuditContext, for iFrames: AuditedPlaylist) -> [(
        seconds: Double, size: Int
    )]? {
        let targets = Set(iFrames.playlist.segments.map { URIReference.resolve($0.uri, against: iFrames.location) })
        let variants = context.variants.map(\.1)
        let sharing = variants.first { audited in
            audited.playlist.segments.contains {
                targets.contains(URIReference.resolve($0.uri, against: audited.location))
            }
        }
        let folder = { (audited: AuditedPlaylist) in URIReference.resolve("./", against: audited.location) }
        let beside = variants.filter { folder($0) == folder(iFrames) }
        guard let main = sharing ?? (beside.count == 1 ? beside.first : nil) else { return nil }
        var idrs: [(Double, Int)] = []
        for (_, _, facts) in main.measured {
            guard let video = facts.video else { continue }
            for frame in video.frames where frame.isIDR {
                if let pts = frame.presentationTime { idrs.append((video.seconds(pts), frame.size)) }
            }
        }
        return idrs.isEmpty ? nil : idrs
    }
}
