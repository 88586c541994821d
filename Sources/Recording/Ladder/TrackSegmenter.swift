import Foundation
import Media
import Packaging
import Platform

/// Turns one finished segment's bytes, or one part's, into what is written (AES-128 encryption): the segment's
/// index counted from the start of the recording, and its plaintext. Called on the writer thread of its track.
public typealias SegmentEncryptor = @Sendable (_ segmentIndex: Int, _ plaintext: [UInt8]) throws -> [UInt8]

/// Cuts one encoded stream into segment files: feeds packets through a `SegmentCutter`, muxes them with
/// a `SegmentMuxer`, writes each finished segment atomically and reports a `SegmentRecord`. With a
/// `PartCutter` (LL-HLS) it also writes each part — one fragment — as soon as its last packet is muxed, and
/// reports a `PartRecord`; the segment file is then the concatenation of its parts.
/// Runs on the thread that owns the encoder; confined there.
final class TrackSegmenter {
    let track: TrackID
    private let muxer: SegmentMuxer
    private var cutter: SegmentCutter
    private let folder: String
    private let extensionName: String
    /// The encoder time base as (numerator, denominator).
    private let timeBase: (numerator: Int32, denominator: Int32)
    /// Added to every timestamp written into the container (keeps decoding times positive).
    private let muxOffset: Int64
    private let programDateTime: (Timestamp) -> Int64?
    private let report: (TrackEvent) -> Void
    private let encryptSegment: SegmentEncryptor?
    private var currentIndex: Int?
    private var currentStart: Timestamp = .zero
    private var lastPacketEnd: Timestamp?
    private var firstKeyframeBytes: [UInt8]?
    private var partCutter: PartCutter?
    /// The part in progress: its start and whether it begins with a keyframe (nil between parts).
    private var partStart: (time: Timestamp, independent: Bool)?
    private var partsOfSegment: [PartRecord] = []
    private var lastPacketTime: Timestamp = .zero

    init(
        track: TrackID, muxer: SegmentMuxer, targetDuration: Timestamp, gridOrigin: Timestamp?, folder: String,
        timeBase: (numerator: Int32, denominator: Int32), muxOffset: Int64,
        programDateTime: @escaping (Timestamp) -> Int64?,
        encryptSegment: SegmentEncryptor? = nil, partCutter: PartCutter? = nil,
        report: @escaping (TrackEvent) -> Void
    ) throws {
        self.encryptSegment = encryptSegment
        self.partCutter = partCutter
        self.track = track
        self.muxer = muxer
        self.cutter = SegmentCutter(targetDuration: targetDuration, gridOrigin: gridOrigin)
        self.folder = folder
        self.extensionName = muxer.container.segmentExtension
        self.timeBase = timeBase
        self.muxOffset = muxOffset
        self.programDateTime = programDateTime
        self.report = report
        let initSegment = try muxer.start()
        if muxer.container == .fragmentedMP4 {
            try store(initSegment, as: Self.initSegmentName)
        }
    }

    static let initSegmentName = "init.mp4"

    static func segmentName(_ index: Int, extension ext: String) -> String {
        SegmentRecord.fileName(index, extension: ext)
    }

    /// The first keyframe's bytes (for the CODECS string when there is no global header).
    var firstKeyframe: [UInt8]? { firstKeyframeBytes }

    func time(_ ticks: Int64) -> Timestamp {
        Timestamp(ticks * Int64(timeBase.numerator), timescale: timeBase.denominator)
    }

    /// Takes one packet in decoding order.
    func handle(_ packet: EncodedPacket) throws {
        if packet.isKeyframe && firstKeyframeBytes == nil { firstKeyframeBytes = packet.bytes }
        let pts = time(packet.presentationTime)
        if case .startSegment(let index) = cutter.handle(presentationTime: pts, isKeyframe: packet.isKeyframe) {
            try closePart(endingAt: pts)
            try closeSegment(endingAt: pts)
            try muxer.beginSegment()
            // Parts are laid out from each segment's first packet, so none straddles a segment boundary.
            partCutter = partCutter.map { PartCutter(partDuration: $0.partDuration, gridOrigin: pts) }
            currentIndex = index
            currentStart = pts
            partsOfSegment = []
        }
        if partStart != nil, partCutter?.packetStarts(at: pts) == true { try closePart(endingAt: pts) }
        if partCutter != nil && partStart == nil {
            partCutter?.begin(at: pts)
            partStart = (pts, packet.isKeyframe)
        }
        var shifted = packet
        shifted.presentationTime += muxOffset
        shifted.decodingTime += muxOffset
        try muxer.write(shifted, recordedTime: pts)
        let end = pts + time(packet.duration)
        if lastPacketEnd.map({ end > $0 }) ?? true { lastPacketEnd = end }
        lastPacketTime = pts
        if partCutter?.packetEnded(at: end) == true { try closePart(endingAt: end) }
    }

    /// Closes the last segment at `endTime` (or at the end of the last packet) and the container.
    func finish(endTime: Timestamp?) throws {
        try closePart(endingAt: endTime ?? lastPacketEnd ?? currentStart)
        try closeSegment(endingAt: endTime ?? lastPacketEnd ?? currentStart)
        try muxer.finish()
        report(.finished(track))
    }

    private func closeSegment(endingAt end: Timestamp) throws {
        guard let index = currentIndex else { return }
        currentIndex = nil
        var segment = try muxer.endSegment()
        if let encryptSegment {
            segment.keyframes = try storeIFrames(of: segment, index: index, encrypt: encryptSegment)
            segment.bytes = try encryptSegment(index, segment.bytes)
        }
        let name = Self.segmentName(index, extension: extensionName)
        try store(segment.bytes, as: name)
        let record = SegmentRecord(
            uri: name, startTime: currentStart, duration: end - currentStart, byteSize: segment.bytes.count,
            keyframes: segment.keyframes, programDateTimeMilliseconds: programDateTime(currentStart),
            parts: partsOfSegment)
        report(.segment(track, index: index, record))
    }

    /// The keyframes of an encrypted video segment, each written as a resource of its own: a byte range of the
    /// encrypted segment could not be decrypted alone (no padding of its own, and the IV of a range starting inside
    /// it is the ciphertext block before it). Each keyframe's plaintext range (what an I-frame playlist of the clear
    /// segment would name: the TS packets of the SDT, PAT and PMT before the keyframe and of the IDR access unit;
    /// fMP4 from `moof` through the IDR sample) is encrypted whole with the segment's key and IV, and stored beside
    /// the segment (`seg_00003.iframe.ts`). Audio has none.
    private func storeIFrames(
        of segment: SegmentMuxer.Segment, index: Int, encrypt: SegmentEncryptor
    ) throws -> [KeyframeRange] {
        guard case .video = track else { return [] }
        return try segment.keyframes.enumerated().map { number, keyframe in
            let plaintext = Array(segment.bytes[keyframe.offset..<(keyframe.offset + keyframe.length)])
            let sealed = try encrypt(index, plaintext)
            let name = KeyframeRange.resourceName(segment: index, keyframe: number, extension: extensionName)
            try store(sealed, as: name)
            return KeyframeRange(
                presentationTime: keyframe.presentationTime, offset: 0, length: sealed.count, resourceURI: name)
        }
    }

    /// Writes the part in progress (if any) as one fragment and reports it.
    private func closePart(endingAt end: Timestamp) throws {
        guard let index = currentIndex, let start = partStart else { return }
        partStart = nil
        let plaintext = try muxer.endPart()
        // A part is a resource of its own: encrypted alone, with its segment's key and IV (RFC 8216bis §6.2.3).
        let bytes = try encryptSegment.map { try $0(index, plaintext) } ?? plaintext
        let number = partsOfSegment.count
        let name = PartRecord.name(segment: index, part: number, extension: extensionName)
        try store(bytes, as: name)
        let renamed = Int64((Date().timeIntervalSince1970 * 1000).rounded())
        let record = PartRecord(
            uri: name, startTime: start.time, duration: end - start.time, isIndependent: start.independent,
            byteSize: bytes.count)
        partsOfSegment.append(record)
        report(
            .part(
                track, index: index, part: number, record,
                PartTiming(lastSampleTime: lastPacketTime, renamedAtMilliseconds: renamed)))
    }

    /// The one place where the bytes of an init segment, segment or part reach the disk: written to a
    /// temporary name in `folder` and renamed into place, so a reader never sees half a file.
    private func store(_ bytes: [UInt8], as name: String) throws {
        try AtomicFile.write(bytes, to: folder + "/" + name)
    }
}
