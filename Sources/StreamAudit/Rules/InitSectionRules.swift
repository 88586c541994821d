/// An fMP4 segment fits the init section in effect: its fragments' track ids are the init's, and any
/// parameter set it carries in band is the one the init's configuration record holds (RFC 8216bis §3.1.2).
enum InitSectionRules {
    static func check(_ context: AuditContext) -> [Finding] {
        var findings: [Finding] = []
        for audited in context.input.playlists {
            for (_, segment, facts) in audited.measured where !facts.fragmentTrackIDs.isEmpty {
                let unknown = Set(facts.fragmentTrackIDs).subtracting(facts.initTrackIDs)
                if !unknown.isEmpty {
                    findings.append(
                        Finding(
                            .initMismatch, playlist: audited.uri, segment: segment.uri,
                            message: "the segment's fragments use track id(s) the init section does not declare",
                            measured: "track ids \(facts.fragmentTrackIDs.map(String.init).joined(separator: ","))",
                            declared: "track ids \(facts.initTrackIDs.map(String.init).joined(separator: ","))"))
                    continue
                }
                for track in facts.tracks {
                    guard let configured = track.configurationSPS, !track.inBandSPS.isEmpty,
                        !track.inBandSPS.contains(configured)
                    else { continue }
                    let inBand = track.inBandSPS.first.flatMap { NALUnitScanner.parameters(ofSequenceParameterSet: $0, codec: track.codec) }
                    let initParameters = NALUnitScanner.parameters(ofSequenceParameterSet: configured, codec: track.codec)
                    findings.append(
                        Finding(
                            .initMismatch, playlist: audited.uri, segment: segment.uri,
                            message: "the segment's in-band SPS differs from the init section's configuration record",
                            measured: inBand.map { "\($0.codecString) \($0.width)x\($0.height)" } ?? "unparsable SPS",
                            declared: initParameters.map { "\($0.codecString) \($0.width)x\($0.height)" } ?? "unparsable SPS"))
                }
            }
        }
        return findings
    }
}
