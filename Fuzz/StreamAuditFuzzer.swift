import HLS

// libFuzzer entry point for StreamAudit (`inspect --deep`'s readers and rules).
//
// Not part of Package.swift: `scripts/fuzz.sh` compiles this file together with Sources/StreamAudit as one module
// (`swiftc -sanitize=fuzzer,address -parse-as-library`, HLS and JSON compiled first), so StreamAudit's internal
// names are visible without `StreamAudit.`. Every call below promises "never traps" for any bytes; the sanitizer
// turns a broken promise into a crash report.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzStreamAudit(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = size > 0 && data != nil ? Array(UnsafeBufferPointer(start: data, count: size)) : []

    // The readers on the bytes as a file holds them: ISO BMFF boxes, NAL units, parameter sets, AAC headers.
    _ = MP4BoxWalker.looksLikeMP4(bytes)
    _ = MP4BoxWalker.initTracks(bytes)
    _ = MP4BoxWalker.fragmentTrackIDs(bytes)
    for codec in [CodecFamily.h264, .hevc] {
        _ = NALUnitScanner.parameters(ofSequenceParameterSet: bytes, codec: codec)
        if let record = NALUnitScanner.configurationRecord(bytes, codec: codec), let sps = record.sps {
            _ = NALUnitScanner.parameters(ofSequenceParameterSet: sps, codec: codec)
        }
        bytes.withUnsafeBytes { raw in
            for framing in [NALFraming.annexB] + (1...4).map({ NALFraming.lengthPrefixed(bytes: $0) }) {
                let summary = NALUnitScanner.summary(raw, framing: framing, codec: codec)
                _ = summary.isIDR(codec)
                for sps in summary.sequenceParameterSets.prefix(8) {
                    _ = NALUnitScanner.parameters(ofSequenceParameterSet: sps, codec: codec)
                }
            }
            _ = AACConfiguration.objectType(adtsFrame: raw)
        }
    }
    // The same bytes behind a parameter set's NAL header, so that every input is read as one.
    _ = H264SequenceParameters.parse([0x67] + bytes)
    _ = HEVCSequenceParameters.parse([0x42, 0x01] + bytes)
    _ = AACConfiguration.objectType(audioSpecificConfig: bytes)

    // The rules on a ladder whose numbers (playlist values, timestamps, time bases, sizes) come from the bytes.
    var source = FuzzNumbers(bytes)
    if let input = source.auditInput() {
        let report = StreamAuditor.audit(input)
        for finding in report.findings.prefix(64) { _ = "\(finding.message) \(finding.measured ?? "")" }
    }
    return 0
}

/// Reads numbers from the fuzzer's bytes (zeros once they run out), each drawn half the time from values that
/// break arithmetic.
struct FuzzNumbers {
    private let bytes: [UInt8]
    private var offset = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    mutating func byte() -> UInt8 {
        defer { offset += 1 }
        return offset < bytes.count ? bytes[offset] : 0
    }

    mutating func int64() -> Int64 {
        let edges: [Int64] = [0, 1, -1, .max, .min, .max - 1, .min + 1, 1 << 33, (1 << 33) - 1, 1 << 62, -(1 << 62)]
        let pick = byte()
        if pick < 128 { return edges[Int(pick) % edges.count] }
        return (0..<8).reduce(Int64(0)) { value, _ in value << 8 | Int64(byte()) }
    }

    mutating func int(in range: ClosedRange<Int>) -> Int {
        range.lowerBound + Int(byte()) % (range.upperBound - range.lowerBound + 1)
    }

    /// A decimal number as a playlist writes it: a few edges (ones the grammar refuses included) or digits.
    mutating func decimal() -> String {
        let edges = [
            "0", "0.000", "1", "2.002", "0.0000000000001", "1" + String(repeating: "0", count: 30),
            "9" + String(repeating: "9", count: 400) + ".5", "-1", "1e308", "NaN", "inf", "9223372036854775807",
            "18446744073709551616",
        ]
        let pick = byte()
        if pick < 160 { return edges[Int(pick) % edges.count] }
        return "\(byte()).\(byte())\(byte())"
    }

    /// A multivariant playlist (two variants, an I-frame variant, audio and subtitle renditions) and one media
    /// playlist for each, every segment measured with facts made of the following bytes.
    mutating func auditInput() -> AuditInput? {
        let target = decimal()
        let bandwidths = (0..<4).map { _ in decimal() }
        let master = """
            #EXTM3U
            #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="a",NAME="en",URI="audio.m3u8"
            #EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="s",NAME="en",URI="subs.m3u8"
            #EXT-X-STREAM-INF:BANDWIDTH=\(bandwidths[0]),AVERAGE-BANDWIDTH=\(bandwidths[1]),CODECS="avc1.64001f,mp4a.40.2",RESOLUTION=640x360,FRAME-RATE=\(decimal()),AUDIO="a",SUBTITLES="s"
            v0.m3u8
            #EXT-X-STREAM-INF:BANDWIDTH=\(bandwidths[2]),CODECS="avc1.64001f",RESOLUTION=320x180,AUDIO="a",SUBTITLES="s"
            v1.m3u8
            #EXT-X-I-FRAME-STREAM-INF:BANDWIDTH=\(bandwidths[3]),CODECS="avc1.64001f",URI="i.m3u8"

            """
        guard let multivariant = parse(master).playlist?.multivariant else { return nil }
        var playlists: [AuditedPlaylist] = []
        for (uri, role) in roles(multivariant) {
            let count = int(in: 0...4)
            var text = "#EXTM3U\n#EXT-X-TARGETDURATION:\(target)\n#EXT-X-MEDIA-SEQUENCE:\(decimal())\n"
            if case .iFrameVariant = role { text += "#EXT-X-I-FRAMES-ONLY\n" }
            if byte() < 64 { text += "#EXT-X-PLAYLIST-TYPE:VOD\n" }
            for index in 0..<count {
                if byte() < 32 { text += "#EXT-X-DISCONTINUITY\n" }
                if case .iFrameVariant = role { text += "#EXT-X-BYTERANGE:\(decimal())@\(decimal())\n" }
                text += "#EXTINF:\(decimal()),\ns\(index).\(uri.hasPrefix("subs") ? "vtt" : "ts")\n"
            }
            guard let media = parse(text).playlist?.media else { continue }
            let segments = media.segments.map { _ in observation(subtitles: uri.hasPrefix("subs")) }
            playlists.append(
                AuditedPlaylist(uri: uri, location: uri, role: role, playlist: media, segments: segments))
        }
        return AuditInput(multivariant: multivariant, playlists: playlists)
    }

    private func roles(_ multivariant: MultivariantPlaylist) -> [(String, AuditedPlaylist.Role)] {
        multivariant.renditions.compactMap { rendition in rendition.uri.map { ($0, .rendition(rendition)) } }
            + multivariant.variants.map { ($0.uri, .variant($0)) }
            + multivariant.iFrameVariants.map { ($0.uri, .iFrameVariant($0)) }
    }

    private mutating func observation(subtitles: Bool) -> SegmentObservation {
        let byteCount = byte() < 16 ? nil : Int(truncatingIfNeeded: int64())
        if subtitles {
            let map = "X-TIMESTAMP-MAP=MPEGTS:\(decimal()),LOCAL:00:00:00.000"
            return SegmentObservation(
                .subtitles(WebVTTDocument.parse(Array("WEBVTT\n\(map)\n\n".utf8)).document), byteCount: byteCount)
        }
        switch byte() % 8 {
        case 0: return SegmentObservation(.unreadable("fuzz"), byteCount: byteCount)
        case 1: return SegmentObservation(.notSampled)
        default: break
        }
        var tracks: [TrackFacts] = []
        for kind in [TrackKind.video, .audio] where byte() >= 32 {
            var track = TrackFacts(
                kind: kind, codec: kind == .video ? .h264 : .aac, timeBaseNumerator: Int(truncatingIfNeeded: int64()),
                timeBaseDenominator: Int(truncatingIfNeeded: int64()))
            if kind == .video, byte() >= 64 {
                track.video = VideoParameters(
                    codec: .h264, profile: 100, compatibility: 0, level: 31, width: Int(truncatingIfNeeded: int64()),
                    height: int(in: 0...2000), framesPerSecond: byte() < 128 ? nil : Double(int64()))
            }
            if kind == .audio {
                track.audioObjectType = int(in: 0...40)
                track.sampleRate = byte() < 32 ? nil : Int(truncatingIfNeeded: int64())
            }
            for _ in 0..<int(in: 0...12) {
                let pts = byte() < 16 ? nil : int64()
                track.frames.append(
                    FrameFact(
                        presentationTime: pts, decodingTime: pts, duration: int64(),
                        size: Int(truncatingIfNeeded: int64()), isIDR: byte() & 1 == 1))
            }
            tracks.append(track)
        }
        let ids = (0..<int(in: 0...2)).map { _ in Int(truncatingIfNeeded: int64()) }
        let facts = SegmentFacts(tracks: tracks, initTrackIDs: byte() < 128 ? ids : [1, 2], fragmentTrackIDs: ids)
        return SegmentObservation(.measured(facts), byteCount: byteCount)
    }
}
