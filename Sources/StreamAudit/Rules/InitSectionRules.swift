import HLS
import JSON

/// An fMP4 segment fits the init section in effect: its fragments' track ids are the init's, any parameter
/// set it carries in band is the one the init's configuration record holds (RFC 8216bis §3.1.2), and the
/// init's timescale (`mdhd`, the clock of every `tfdt` and sample duration) is the one the segment was muxed
/// with; and a media segment's video is presented from its fragment's decoding time (`tfdt`), as players that
/// place fragments by `tfdt` expect.
enum InitSectionRules {
    static func check(_ context: AuditContext) -> [Finding] {
        var findings: [Finding] = []
        for audited in context.input.playlists {
            let measured = audited.measured
            for (position, (_, segment, facts)) in measured.enumerated() where !facts.fragmentTrackIDs.isEmpty {
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
                let span =
                    audited.playlist.iFramesOnly
                    ? iFrameSpan(measured[position], next: measured.dropFirst(position + 1).first)
                    : facts.video?.durationSeconds
                if let finding = timescaleMismatch(segment, facts, videoSpan: span, playlist: audited.uri) {
                    findings.append(finding)
                }
                if !audited.playlist.iFramesOnly, let finding = presentationAfterDecode(segment, facts, audited.uri) {
                    findings.append(finding)
                }
                for track in facts.tracks {
                    guard let configured = track.configurationSPS, !track.inBandSPS.isEmpty,
                        !track.inBandSPS.contains(configured)
                    else { continue }
                    let inBand = track.inBandSPS.first.flatMap {
                        NALUnitScanner.parameters(ofSequenceParameterSet: $0, codec: track.codec)
                    }
                    let initParameters = NALUnitScanner.parameters(
                        ofSequenceParameterSet: configured, codec: track.codec)
                    findings.append(
                        Finding(
                            .initMismatch, playlist: audited.uri, segment: segment.uri,
                            message: "the segment's in-band SPS differs from the init section's configuration record",
                            measured: inBand.map { "\($0.codecString) \($0.width)x\($0.height)" } ?? "unparsable SPS",
                            declared: initParameters.map { "\($0.codecString) \($0.width)x\($0.height)" }
                                ?? "unparsable SPS"))
                }
            }
        }
        return findings
    }

    /// The fragment's video presented later than its first sample is decoded (its `tfdt`): unsigned composition
    /// offsets with no edit list leave the first frame presented a frame or more after `tfdt`, a gap at the start
    /// of every segment for a player that places fragments by `tfdt`. More than a millisecond counts.
    static func presentationAfterDecode(_ segment: Segment, _ facts: SegmentFacts, _ playlist: String) -> Finding? {
        guard let video = facts.video, let decoded = video.frames.first?.decodingTime,
            let presented = video.frames.lazy.compactMap(\.presentationTime).min()
        else { return nil }
        let (late, overflow) = presented.subtractingReportingOverflow(decoded)
        guard !overflow, video.seconds(late) > 0.001 else { return nil }
        return Finding(
            .presentationAfterDecode, playlist: playlist, segment: segment.uri,
            message:
                "the fragment's video is first presented \(Int(saturating: (video.seconds(late) * 1000).rounded())) ms after its decoding time (tfdt)",
            measured: "earliest presentation \(video.seconds(presented)) s",
            declared: "tfdt \(video.seconds(decoded)) s")
    }

    /// The time an I-frame entry stands for, by the init section's clock: from its I-frame to the next entry's
    /// (RFC 8216bis §4.4.3.6), when that entry was measured and follows it without a discontinuity. Not the
    /// range's own media, which is one frame (and, in a low-latency segment, one fragment of several).
    static func iFrameSpan(
        _ entry: (index: Int, segment: Segment, facts: SegmentFacts),
        next: (index: Int, segment: Segment, facts: SegmentFacts)?
    ) -> Double? {
        guard let next, next.index == entry.index + 1, !next.segment.discontinuity,
            let start = entry.facts.video?.firstPresentationSeconds,
            let end = next.facts.video?.firstPresentationSeconds
        else { return nil }
        return end - start
    }

    /// A timescale that is not the segment's shows as media time scaled by a constant factor: AAC frames that do
    /// not last 1024 samples at the configured sample rate, or video spanning far from its EXTINF (more than
    /// half again or less than two thirds of it, where a wrong EXTINF is off by a frame or so). `videoSpan`:
    /// the seconds of video the EXTINF describes (a media segment's video; an I-frame entry's ``iFrameSpan``).
    static func timescaleMismatch(_ segment: Segment, _ facts: SegmentFacts, videoSpan: Double?, playlist: String)
        -> Finding?
    {
        func timescale(_ track: TrackFacts) -> String {
            track.timeBaseNumerator == 1
                ? "\(track.timeBaseDenominator)" : "\(track.timeBaseDenominator)/\(track.timeBaseNumerator)"
        }
        if let video = facts.video, let measured = videoSpan, segment.duration > 0, measured > 0 {
            let ratio = measured / segment.duration
            if ratio > 1.5 || ratio < 2.0 / 3.0 {
                let intended = Double(video.timeBaseDenominator) / Double(max(1, video.timeBaseNumerator)) / ratio
                return Finding(
                    .initMismatch, playlist: playlist, segment: segment.uri,
                    message: "at the init section's video timescale \(timescale(video)) the segment lasts "
                        + "\(fixedNumber(ratio, digits: 2))× its EXTINF: it was muxed with a timescale of about "
                        + "\(Int(saturating: intended.rounded()))",
                    measured: "\(fixedNumber(measured, digits: 3)) s",
                    declared: "EXTINF \(fixedNumber(segment.duration, digits: 3)) s")
            }
        }
        if let audio = facts.audio, audio.codec == .aac, let rate = audio.sampleRate, rate > 0 {
            let durations = audio.frames.map(\.duration).filter { $0 > 0 }
            guard !durations.isEmpty else { return nil }
            let mean = durations.reduce(0.0) { $0 + Double($1) } / Double(durations.count)
            let seconds = mean * Double(audio.timeBaseNumerator) / Double(max(1, audio.timeBaseDenominator))
            let expected = 1024 / Double(rate)
            if abs(seconds / expected - 1) > 0.1 {
                return Finding(
                    .initMismatch, playlist: playlist, segment: segment.uri,
                    message: "at the init section's audio timescale \(timescale(audio)) an AAC frame lasts "
                        + "\(fixedNumber(seconds * 1000, digits: 2)) ms, where 1024 samples at \(rate) Hz last "
                        + "\(fixedNumber(expected * 1000, digits: 2)) ms",
                    measured: "\(fixedNumber(seconds * 1000, digits: 2)) ms per frame",
                    declared: "\(fixedNumber(expected * 1000, digits: 2)) ms per frame")
            }
        }
        return nil
    }
}
