internal import CFFmpeg

/// AAC-LC through libavcodec's native encoder: takes interleaved float samples in any amount,
/// cuts them into the encoder's 1024-sample frames, and passes on packets with sample-count timestamps.
public final class AudioEncoder {
    public let sampleRate: Int
    public let channels: Int
    /// The opened AAC context (what a `SegmentMuxer` takes its stream parameters from).
    public let codec: CodecContext
    private let frame: MediaFrame
    private let packet: MediaPacket
    /// Samples per channel waiting for a full frame, planar.
    private var pending: [[Float]]
    /// Samples per channel sent to the encoder so far (the next frame's pts).
    private var samplesSent: Int64 = 0

    public init(sampleRate: Int = 48_000, channels: Int = 2, bitsPerSecond: Int = 128_000) throws(FFmpegError) {
        self.sampleRate = sampleRate
        self.channels = channels
        codec = try CodecContext(encoderNamed: "aac")
        frame = try MediaFrame()
        packet = try MediaPacket()
        pending = Array(repeating: [], count: channels)
        let context = codec.pointer
        context.pointee.sample_rate = Int32(sampleRate)
        context.pointee.sample_fmt = AV_SAMPLE_FMT_FLTP
        context.pointee.bit_rate = Int64(bitsPerSecond)
        context.pointee.time_base = AVRational(num: 1, den: Int32(sampleRate))
        context.pointee.profile = FF_PROFILE_AAC_LOW
        av_channel_layout_default(&context.pointee.ch_layout, Int32(channels))
        try codec.open()
    }

    /// Samples per channel in one AAC frame (1024).
    public var frameSize: Int { max(Int(codec.pointer.pointee.frame_size), 1) }

    /// Feeds interleaved samples (`channels` values per instant, −1…1).
    public func encode(interleaved samples: [Float], _ emit: (EncodedPacket) throws -> Void) throws {
        for (index, sample) in samples.enumerated() {
            pending[index % channels].append(sample)
        }
        while pending[0].count >= frameSize {
            try sendFrame(count: frameSize, emit)
        }
    }

    /// Encodes what is left (padded with silence) and flushes the encoder.
    public func finish(_ emit: (EncodedPacket) throws -> Void) throws {
        if !pending[0].isEmpty {
            let missing = frameSize - pending[0].count
            for channel in 0..<channels { pending[channel].append(contentsOf: repeatElement(0, count: missing)) }
            try sendFrame(count: frameSize, emit)
        }
        try codec.send(frame: nil)
        try drain(emit)
    }

    private func sendFrame(count: Int, _ emit: (EncodedPacket) throws -> Void) throws {
        frame.unreference()
        frame.pointer.pointee.nb_samples = Int32(count)
        frame.pointer.pointee.format = AV_SAMPLE_FMT_FLTP.rawValue
        frame.pointer.pointee.sample_rate = Int32(sampleRate)
        try check(
            av_channel_layout_copy(&frame.pointer.pointee.ch_layout, &codec.pointer.pointee.ch_layout),
            "av_channel_layout_copy")
        try check(av_frame_get_buffer(frame.pointer, 0), "av_frame_get_buffer")
        for channel in 0..<channels {
            let (data, _) = frame.plane(channel)
            guard let data else { continue }
            data.withMemoryRebound(to: Float.self, capacity: count) { destination in
                pending[channel].withUnsafeBufferPointer { source in
                    if let base = source.baseAddress { destination.update(from: base, count: count) }
                }
            }
            pending[channel].removeFirst(count)
        }
        frame.presentationTime = samplesSent
        samplesSent += Int64(count)
        while try !codec.send(frame: frame) { try drain(emit) }
        try drain(emit)
    }

    private func drain(_ emit: (EncodedPacket) throws -> Void) throws {
        while try codec.receivePacket(into: packet) == .produced {
            defer { packet.unreference() }
            let pts = packet.presentationTime ?? 0
            try emit(
                EncodedPacket(
                    bytes: packet.bytes, presentationTime: pts, decodingTime: packet.decodingTime ?? pts,
                    duration: packet.duration, isKeyframe: true))
        }
    }
}
