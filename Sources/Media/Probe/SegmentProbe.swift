internal import CFFmpeg
import StreamAudit

/// Turns a segment's bytes into ``SegmentFacts``: every packet's timing, size and (for H.264/H.265) whether
/// its NAL units hold an IDR; each stream's SPS parameters and AAC object type. MPEG-TS and fMP4 (with its
/// init section) alike; nothing is decoded.
public enum SegmentProbe {
    /// Demuxes `segment` (after `initSection`, for fMP4). Throws when libav cannot open the bytes or reads
    /// no packet from them.
    ///
    /// An fMP4 segment whose fragments name tracks the init section lacks (libav then drops them) gives
    /// facts with no tracks and both id lists, so the mismatch is reported as such.
    public static func probe(segment: [UInt8], initSection: [UInt8]? = nil) throws(FFmpegError) -> SegmentFacts {
        let isMP4 = MP4BoxWalker.looksLikeMP4(initSection ?? segment)
        if isMP4 {
            let initIDs = MP4BoxWalker.initTracks(initSection ?? segment).map(\.trackID)
            let fragmentIDs = MP4BoxWalker.fragmentTrackIDs(segment)
            if !Set(fragmentIDs).isSubset(of: initIDs) {
                return SegmentFacts(tracks: [], initTrackIDs: initIDs, fragmentTrackIDs: fragmentIDs)
            }
        }
        return try demux(segment: segment, initSection: initSection, isMP4: isMP4)
    }

    private static func demux(segment: [UInt8], initSection: [UInt8]?, isMP4: Bool) throws(FFmpegError) -> SegmentFacts
    {
        let format: String? = isMP4 ? "mov" : (segment.first == 0x47 ? "mpegts" : nil)
        let bytes = (initSection ?? []) + segment
        let demuxer = try MemoryDemuxer(bytes: bytes, formatName: format)
        var tracks: [TrackFacts] = []
        var framings: [NALFraming] = []
        for index in 0..<demuxer.streamCount {
            let (track, framing) = describe(demuxer.stream(index))
            tracks.append(track)
            framings.append(framing)
        }
        let packet = try MediaPacket()
        var readAny = false
        while true {
            let more: Bool
            do throws(FFmpegError) {
                more = try demuxer.read(into: packet)
            } catch {
                if !readAny { throw error }
                break
            }
            guard more else { break }
            defer { packet.unreference() }
            // A stream found while reading (TS without its PMT up front) gets its description then.
            while tracks.count < demuxer.streamCount {
                let (track, framing) = describe(demuxer.stream(tracks.count))
                tracks.append(track)
                framings.append(framing)
            }
            let index = packet.streamIndex
            guard index >= 0, index < tracks.count else { continue }
            readAny = true
            record(packet, into: &tracks[index], framing: framings[index])
        }
        guard readAny else { throw FFmpegError(code: fz_AVERROR(EINVAL), function: "av_read_frame (no media packets)") }
        if isMP4 {
            for index in tracks.indices {
                guard let id = demuxer.stream(index)?.pointee.id else { continue }
                presentFragmentTiming(MP4BoxWalker.fragmentSamples(segment), trackID: Int(id), in: &tracks[index])
            }
            return SegmentFacts(
                tracks: tracks, initTrackIDs: MP4BoxWalker.initTracks(initSection ?? segment).map(\.trackID),
                fragmentTrackIDs: MP4BoxWalker.fragmentTrackIDs(segment))
        }
        return SegmentFacts(tracks: tracks)
    }

    /// Presentation times as the fragments state them (decoding time plus composition offset). libav's mov
    /// demuxer moves every presentation time of a track with negative composition offsets (`trun` version 1)
    /// later by the largest of them, so that none precedes its decoding time; the audit needs the times a
    /// player presents. The packets are the track's first samples, in order (an I-frame byte range holds the
    /// whole `moof` but only its first sample's data); left alone when there are more packets than samples.
    private static func presentFragmentTiming(
        _ samples: [MP4BoxWalker.FragmentSample], trackID: Int, in track: inout TrackFacts
    ) {
        let offsets = samples.filter { $0.trackID == trackID }.map(\.compositionOffset)
        guard track.frames.count <= offsets.count, offsets.contains(where: { $0 < 0 }) else { return }
        for (index, offset) in zip(track.frames.indices, offsets) {
            guard let decodingTime = track.frames[index].decodingTime else { continue }
            track.frames[index].presentationTime = decodingTime &+ offset
        }
    }

    /// A stream's kind, codec, time base and configuration record (from the init section's extradata).
    private static func describe(_ stream: UnsafeMutablePointer<AVStream>?) -> (TrackFacts, NALFraming) {
        guard let stream, let parameters = stream.pointee.codecpar else {
            return (
                TrackFacts(kind: .data, codec: .other("unknown"), timeBaseNumerator: 1, timeBaseDenominator: 90_000),
                .annexB
            )
        }
        let kind: TrackKind
        switch parameters.pointee.codec_type {
        case AVMEDIA_TYPE_VIDEO: kind = .video
        case AVMEDIA_TYPE_AUDIO: kind = .audio
        case AVMEDIA_TYPE_SUBTITLE: kind = .subtitle
        default: kind = .data
        }
        let codec: CodecFamily
        switch parameters.pointee.codec_id {
        case AV_CODEC_ID_H264: codec = .h264
        case AV_CODEC_ID_HEVC: codec = .hevc
        case AV_CODEC_ID_AAC: codec = .aac
        default: codec = .other(String(cString: avcodec_get_name(parameters.pointee.codec_id)))
        }
        var track = TrackFacts(
            kind: kind, codec: codec, timeBaseNumerator: Int(stream.pointee.time_base.num),
            timeBaseDenominator: Int(stream.pointee.time_base.den))
        if parameters.pointee.sample_rate > 0 { track.sampleRate = Int(parameters.pointee.sample_rate) }
        var extradata: [UInt8] = []
        if let data = parameters.pointee.extradata, parameters.pointee.extradata_size > 0 {
            extradata = Array(UnsafeBufferPointer(start: data, count: Int(parameters.pointee.extradata_size)))
        }
        var framing = NALFraming.annexB
        if codec.isVideoBitstream, extradata.first == 1,
            let record = NALUnitScanner.configurationRecord(extradata, codec: codec)
        {
            framing = .lengthPrefixed(bytes: record.lengthSize)
            track.configurationSPS = record.sps
            track.video = record.sps.flatMap { NALUnitScanner.parameters(ofSequenceParameterSet: $0, codec: codec) }
        }
        if codec == .aac, !extradata.isEmpty {
            track.audioObjectType = AACConfiguration.objectType(audioSpecificConfig: extradata)
        }
        return (track, framing)
    }

    private static func record(_ packet: MediaPacket, into track: inout TrackFacts, framing: NALFraming) {
        let raw = packet.pointer.pointee
        var isIDR = raw.flags & AV_PKT_FLAG_KEY != 0
        if let data = raw.data, raw.size > 0 {
            let bytes = UnsafeRawBufferPointer(start: data, count: Int(raw.size))
            if track.codec.isVideoBitstream {
                let summary = NALUnitScanner.summary(bytes, framing: framing, codec: track.codec)
                isIDR = summary.isIDR(track.codec)
                for sps in summary.sequenceParameterSets where !track.inBandSPS.contains(sps) {
                    track.inBandSPS.append(sps)
                    if track.video == nil {
                        track.video = NALUnitScanner.parameters(ofSequenceParameterSet: sps, codec: track.codec)
                    }
                }
            } else if track.codec == .aac, track.audioObjectType == nil {
                track.audioObjectType = AACConfiguration.objectType(adtsFrame: bytes)
            }
        }
        track.frames.append(
            FrameFact(
                presentationTime: packet.presentationTime, decodingTime: packet.decodingTime, duration: raw.duration,
                size: Int(raw.size), isIDR: isIDR))
    }
}
