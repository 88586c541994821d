import JSON

/// Segment boundaries and discontinuities at the same places in every variant (Apple 8.22, 8.15).
enum AlignmentRules {
    static func check(_ context: AuditContext) -> [Finding] {
        let variants = context.variants.map(\.1).filter { audited in audited.measured.contains { $0.facts.video != nil }
        }
        guard let reference = variants.first else { return [] }
        var findings: [Finding] = []
        for other in variants.dropFirst() where other.uri != reference.uri {
            let referenceStarts = starts(reference), otherStarts = starts(other)
            let discontinuities = { (a: AuditedPlaylist) in
                a.playlist.segments.indices.filter { a.playlist.segments[$0].discontinuity }
            }
            if discontinuities(reference) != discontinuities(other) {
                findings.append(
                    Finding(
                        .segmentsNotAligned, playlist: other.uri,
                        message: "EXT-X-DISCONTINUITY is not at the same segments as in \(reference.uri)"))
                continue
            }
            for (index, start) in otherStarts.sorted(by: { $0.key < $1.key }) {
                guard let expected = referenceStarts[index], abs(expected - start) > 0.001 else { continue }
                findings.append(
                    Finding(
                        .segmentsNotAligned, playlist: other.uri, segment: other.playlist.segments[index].uri,
                        message:
                            "segment \(index) starts \(fixedNumber((start - expected) * 1000, digits: 1)) ms away from \(reference.uri)'s",
                        measured: fixedNumber(start, digits: 3), declared: fixedNumber(expected, digits: 3))
                )
                break
            }
        }
        return findings
    }

    private static func starts(_ audited: AuditedPlaylist) -> [Int: Double] {
        var result: [Int: Double] = [:]
        for (index, _, facts) in audited.measured {
            if let first = facts.video?.firstPresentationSeconds { result[index] = first }
        }
        return result
    }
}
