/// Segments that could not be loaded, demuxed or decrypted (an I-frame range that does not demux is an
/// `iframes.range-not-idr` finding instead).
enum LoadingRules {
    static func check(_ context: AuditContext) -> [Finding] {
        var findings: [Finding] = []
        for audited in context.input.playlists {
            var keyReported = false
            for (segment, observation) in zip(audited.playlist.segments, audited.segments) {
                switch observation.outcome {
                case .unreadable(let reason) where !audited.playlist.iFramesOnly:
                    findings.append(
                        Finding(.segmentUnreadable, playlist: audited.uri, segment: segment.uri, message: reason))
                case .keyUnusable(let reason) where !keyReported:
                    keyReported = true
                    findings.append(Finding(.keyUnusable, playlist: audited.uri, segment: segment.uri, message: reason))
                default:
                    continue
                }
            }
        }
        return findings
    }
}
