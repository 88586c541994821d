internal import CFFmpeg
import FilterKit
import Foundation
import Packaging

/// Decodes a video file libav can read into upright RGBA frames (the display matrix's rotation
/// applied, so portrait phone videos stand up) and interleaved float audio, in file order.
///
///     let reader = try VideoFileReader(path: "clip.mp4")
///     while let item = try reader.next() {
///         switch item {
///         case .video(let frame, let time): …
///         case .audio(let samples): …
///         }
///     }
///
/// Audio of any rate, layout and sample format is resampled by libswresample to interleaved float,
/// mono or stereo (wider layouts are downmixed), at the source rate when AAC has it, else 48 kHz
/// (`AudioResampler.outputFormat`).
/// Times start at zero with the video stream (an MPEG-TS file starting at 1.4 s gives 0, 1/30, …), and the
/// audio is put on the same timeline: sample 0 plays with the first video frame (audio that starts later is
/// preceded by silence, audio that starts earlier is cut). Confined to one task.
public final class VideoFileReader {
    /// What the file holds.
    public struct Info: Sendable {
        /// Upright picture size (after rotation).
        public var width: Int
        public var height: Int
        /// Clockwise rotation applied to stand the picture up (0, 90, 180 or 270).
        public var rotationDegrees: Int
        /// Nominal time between frames.
        public var frameDuration: Timestamp
        /// Ticks per second of the frames' presentation times.
        public var timescale: Int32
        public var durationSeconds: Double?
        /// Sample rate and channel count of the audio that `next()` returns, nil without audio.
        public var audio: (sampleRate: Int, channels: Int)?
    }

    /// One decoded item.
    public enum Item: Sendable {
        case video(Frame, Timestamp)
        case audio([Float])
    }

    public let path: String
    public let info: Info
    private let input: InputFormatContext
    private let videoIndex: Int
    private let videoDecoder: CodecContext
    private let audioIndex: Int?
    private let audioDecoder: CodecContext?
    private let resampler: AudioResampler?
    private let packet: MediaPacket
    private let decoded: MediaFrame
    private var scaler: Scaler?
    private let timeBase: AVRational
    /// The video stream's start time in its ticks: subtracted from every video time.
    private let videoOrigin: Int64
    /// `videoOrigin` in seconds.
    private var videoStartSeconds: Double { Double(videoOrigin) * Double(timeBase.num) / Double(max(timeBase.den, 1)) }
    private let audioTimeBase: AVRational
    /// Samples per channel still to cut from the start of the audio (it began before the video); nil until
    /// the first audio frame has been placed.
    private var audioSamplesToCut: Int?
    private var pending: [Item] = []
    private var reachedEnd = false
    private var flushed = false
    private var framesDecoded = 0
    private var lastVideoTime: Timestamp?

    public init(path: String) throws(MediaInputError) {
        self.path = path
        var status = stat()
        guard stat(path, &status) == 0 else { throw MediaInputError(path: path, reason: "no such file") }
        guard (status.st_mode & S_IFMT) == S_IFREG else {
            throw MediaInputError(path: path, reason: "not a regular file")
        }
        guard status.st_size > 0 else { throw MediaInputError(path: path, reason: "the file is empty (0 bytes)") }
        do {
            input = try InputFormatContext(path: path)
        } catch {
            throw MediaInputError(path: path, reason: "not a video libav can read, or damaged (\(error.reason))")
        }
        guard let videoIndex = input.bestStream(AVMEDIA_TYPE_VIDEO), let stream = input.stream(videoIndex),
            let parameters = stream.pointee.codecpar
        else {
            throw MediaInputError(path: path, reason: "no video stream")
        }
        self.videoIndex = videoIndex
        do {
            videoDecoder = try CodecContext(decoderFor: parameters)
            try videoDecoder.open()
            packet = try MediaPacket()
            decoded = try MediaFrame()
        } catch {
            throw MediaInputError(path: path, reason: "cannot decode the video stream (\(error.reason))")
        }
        timeBase = stream.pointee.time_base
        let start = stream.pointee.start_time
        videoOrigin = start == fz_AV_NOPTS_VALUE() ? 0 : start
        var audioIndex: Int? = nil
        var audioDecoder: CodecContext? = nil
        if let index = input.bestStream(AVMEDIA_TYPE_AUDIO), let audioStream = input.stream(index),
            let audioParameters = audioStream.pointee.codecpar,
            let decoder = try? CodecContext(decoderFor: audioParameters), (try? decoder.open()) != nil
        {
            audioIndex = index
            audioDecoder = decoder
        }
        self.audioIndex = audioIndex
        self.audioDecoder = audioDecoder
        let opened = input
        audioTimeBase = audioIndex.flatMap { opened.stream($0)?.pointee.time_base } ?? AVRational(num: 1, den: 1)

        let rotation = Self.rotation(of: stream)
        let width = Int(parameters.pointee.width), height = Int(parameters.pointee.height)
        guard width > 0, height > 0 else {
            throw MediaInputError(path: path, reason: "the video stream has no picture size")
        }
        var rate = stream.pointee.avg_frame_rate
        if rate.num <= 0 || rate.den <= 0 { rate = stream.pointee.r_frame_rate }
        if rate.num <= 0 || rate.den <= 0 { rate = AVRational(num: 30, den: 1) }
        let audioInfo = audioDecoder.map { decoder in
            AudioResampler.outputFormat(
                sampleRate: Int(decoder.pointer.pointee.sample_rate),
                channels: Int(decoder.pointer.pointee.ch_layout.nb_channels))
        }
        resampler = audioInfo.map { AudioResampler(sampleRate: $0.sampleRate, channels: $0.channels) }
        info = Info(
            width: rotation % 180 == 0 ? width : height, height: rotation % 180 == 0 ? height : width,
            rotationDegrees: rotation, frameDuration: Timestamp(Int64(rate.den), timescale: rate.num),
            timescale: timeBase.den, durationSeconds: input.durationSeconds,
            audio: audioInfo)
    }

    /// Clockwise degrees that make the picture upright, from the stream's display matrix (0 without one).
    static func rotation(of stream: UnsafeMutablePointer<AVStream>) -> Int {
        var size: Int = 0
        guard let data = av_stream_get_side_data(stream, AV_PKT_DATA_DISPLAYMATRIX, &size), size >= 36 else { return 0 }
        let angle = data.withMemoryRebound(to: Int32.self, capacity: 9) { av_display_rotation_get($0) }
        guard angle.isFinite else { return 0 }
        // av_display_rotation_get gives the counter-clockwise angle the picture must be turned by.
        let clockwise = Int((-angle).rounded())
        return ((clockwise % 360) + 360) % 360 / 90 * 90
    }

    /// The next decoded item in file order, or nil at the end.
    /// - Throws: `MediaInputError` when the file is damaged (a read or decode error) or truncated.
    public func next() throws(MediaInputError) -> Item? {
        while pending.isEmpty {
            if flushed { return nil }
            try step()
        }
        return pending.removeFirst()
    }

    private func step() throws(MediaInputError) {
        do {
            if reachedEnd {
                try videoDecoder.send(packet: nil)
                try drainVideo()
                if let audioDecoder, let resampler {
                    try audioDecoder.send(packet: nil)
                    try drainAudio()
                    // What the resampler's filter still holds.
                    let rest = try resampler.flush()
                    if !rest.isEmpty { pending.append(.audio(rest)) }
                }
                flushed = true
                try checkComplete()
                return
            }
            guard try input.read(into: packet) else {
                reachedEnd = true
                return
            }
            defer { packet.unreference() }
            if packet.streamIndex == videoIndex {
                // Decoding the rest of a cut-off picture may or may not fail, depending on the decoder's threads:
                // the demuxer's verdict is the one that does not vary.
                if packet.isCorrupt {
                    throw MediaInputError(
                        path: path,
                        reason: "damaged or truncated (picture \(framesDecoded + 1) is incomplete in the file)")
                }
                while try !videoDecoder.send(packet: packet) { try drainVideo() }
                try drainVideo()
            } else if let audioIndex, packet.streamIndex == audioIndex, let audioDecoder {
                while try !audioDecoder.send(packet: packet) { try drainAudio() }
                try drainAudio()
            }
        } catch let error as MediaInputError {
            throw error
        } catch let error as FFmpegError {
            throw MediaInputError(path: path, reason: "damaged or truncated (\(error.reason))")
        } catch {
            throw MediaInputError(path: path, reason: "\(error)")
        }
    }

    /// A file that ends long before its declared duration is truncated.
    private func checkComplete() throws(MediaInputError) {
        guard framesDecoded > 0 else { throw MediaInputError(path: path, reason: "no video frame could be decoded") }
        if let declared = info.durationSeconds, let last = lastVideoTime {
            let decoded = last.seconds + info.frameDuration.seconds
            // libav gives a fragmented MP4 whose times start late (tfdt, no edit list; `record --format fmp4`
            // starts at 10 s) its end time as its duration, so the decoded span counts from time zero too.
            if decoded + max(0, videoStartSeconds) + 1 < declared * 0.9 {
                throw MediaInputError(
                    path: path,
                    reason:
                        "truncated: only \(Int(decoded.rounded())) s of the declared \(Int(declared.rounded())) s could be decoded"
                )
            }
        }
    }

    private func drainVideo() throws {
        while try videoDecoder.receiveFrame(into: decoded) == .produced {
            defer { decoded.unreference() }
            let ticks =
                decoded.bestEffortTimestamp.map { $0 - videoOrigin }
                ?? (lastVideoTime.map {
                    ($0 + info.frameDuration).converted(to: timeBase.den).value / Int64(max(timeBase.num, 1))
                } ?? 0)
            let time = Timestamp(ticks * Int64(timeBase.num), timescale: timeBase.den)
            if let lastVideoTime, time <= lastVideoTime { continue }  // drop out-of-order duplicates
            // An MPEG-TS declares no duration, so a cut-off one shows only as a last picture with missing data.
            if decoded.isCorrupt {
                throw MediaInputError(
                    path: path, reason: "damaged or truncated (picture \(framesDecoded + 1) could not be decoded whole)"
                )
            }
            lastVideoTime = time
            framesDecoded += 1
            pending.append(.video(try rgbaFrame(), time))
        }
    }

    /// The matrix a decoded picture was made with: its colour description, else the usual one for its size
    /// (BT.709 from 720 lines up).
    private static func matrix(of frame: MediaFrame) -> Scaler.Matrix {
        switch frame.pointer.pointee.colorspace {
        case AVCOL_SPC_BT709: .bt709
        case AVCOL_SPC_UNSPECIFIED: frame.height >= 720 ? .bt709 : .bt601
        default: .bt601
        }
    }

    /// The decoded picture as upright RGBA.
    private func rgbaFrame() throws -> Frame {
        let width = decoded.width, height = decoded.height
        let format = AVPixelFormat(rawValue: decoded.pointer.pointee.format)
        if scaler == nil || scaler?.sourceWidth != width || scaler?.sourceHeight != height {
            scaler = try Scaler(
                from: width, height, format, to: width, height, AV_PIX_FMT_RGBA, matrix: Self.matrix(of: decoded))
        }
        let rgba = try MediaFrame()
        try rgba.allocatePicture(width: width, height: height, pixelFormat: AV_PIX_FMT_RGBA)
        try scaler?.scale(decoded, into: rgba)
        var bytes = [UInt8](repeating: 0, count: width * height * 4)
        bytes.withUnsafeMutableBufferPointer {
            rgba.copyFromPlane(0, into: $0, destinationStride: width * 4, bytesPerRow: width * 4, rows: height)
        }
        let frame = Frame(
            format: .rgba, width: width, height: height,
            planes: [Frame.Plane(width: width, height: height, bytesPerRow: width * 4, bytes: bytes)])
        return info.rotationDegrees == 0 ? frame : Self.rotate(frame, clockwise: info.rotationDegrees)
    }

    /// Turns an RGBA frame by 90, 180 or 270 degrees clockwise.
    static func rotate(_ frame: Frame, clockwise degrees: Int) -> Frame {
        let width = frame.width, height = frame.height
        let source = frame.planes[0]
        let turned = degrees % 180 != 0
        let outWidth = turned ? height : width, outHeight = turned ? width : height
        var out = [UInt8](repeating: 0, count: outWidth * outHeight * 4)
        source.bytes.withUnsafeBufferPointer { src in
            out.withUnsafeMutableBufferPointer { dst in
                for y in 0..<height {
                    for x in 0..<width {
                        let (nx, ny): (Int, Int)
                        switch degrees {
                        case 90: (nx, ny) = (height - 1 - y, x)
                        case 180: (nx, ny) = (width - 1 - x, height - 1 - y)
                        default: (nx, ny) = (y, width - 1 - x)
                        }
                        let s = y * source.bytesPerRow + x * 4, d = (ny * outWidth + nx) * 4
                        dst[d] = src[s]
                        dst[d + 1] = src[s + 1]
                        dst[d + 2] = src[s + 2]
                        dst[d + 3] = src[s + 3]
                    }
                }
            }
        }
        return Frame(
            format: .rgba, width: outWidth, height: outHeight,
            planes: [Frame.Plane(width: outWidth, height: outHeight, bytesPerRow: outWidth * 4, bytes: out)])
    }

    private func drainAudio() throws {
        guard let audioDecoder, let resampler else { return }
        while try audioDecoder.receiveFrame(into: decoded) == .produced {
            defer { decoded.unreference() }
            if audioSamplesToCut == nil {
                placeFirstAudio(sampleRate: resampler.sampleRate, channels: resampler.channels)
            }
            var samples = try resampler.convert(decoded)
            if let cut = audioSamplesToCut, cut > 0 {
                let count = min(cut, samples.count / resampler.channels)
                samples.removeFirst(count * resampler.channels)
                audioSamplesToCut = cut - count
            }
            if !samples.isEmpty { pending.append(.audio(samples)) }
        }
    }

    /// Lines the audio up with the first video frame: silence before audio that starts later, a cut for
    /// audio that starts earlier (by the first decoded frame's time against the video stream's start).
    private func placeFirstAudio(sampleRate: Int, channels: Int) {
        let videoStart = videoStartSeconds
        let audioStart =
            decoded.bestEffortTimestamp.map {
                Double($0) * Double(audioTimeBase.num) / Double(audioTimeBase.den)
            } ?? videoStart
        // Bounded to an hour, so a broken timestamp cannot ask for gigabytes of silence.
        let lead = Int((min(max(audioStart - videoStart, -3600), 3600) * Double(sampleRate)).rounded())
        if lead > 0 { pending.append(.audio([Float](repeating: 0, count: lead * channels))) }
        audioSamplesToCut = max(0, -lead)
    }
}
