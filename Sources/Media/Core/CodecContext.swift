internal import CFFmpeg

/// An owned `AVCodecContext`: one encoder or decoder instance, freed in `deinit`.
///
/// Configure the fields (through the internal `pointer`) before `open(options:)`, then exchange
/// frames and packets with the send/receive pairs. `EAGAIN` and EOF come back as `ReceiveResult`s.
/// Confined to one task (not `Sendable`).
public final class CodecContext {
    private var context: UnsafeMutablePointer<AVCodecContext>?

    /// The owned pointer, valid for the life of this object.
    let pointer: UnsafeMutablePointer<AVCodecContext>
    /// The codec this context runs.
    let codec: UnsafePointer<AVCodec>

    private init(codec: UnsafePointer<AVCodec>) throws(FFmpegError) {
        guard let context = avcodec_alloc_context3(codec) else {
            throw .allocationFailed("avcodec_alloc_context3")
        }
        self.context = context
        self.pointer = context
        self.codec = codec
    }

    deinit { avcodec_free_context(&context) }

    /// An encoder context for the encoder called `name` (e.g. `libx264`, `aac`, `mjpeg`, `png`).
    convenience init(encoderNamed name: String) throws(FFmpegError) {
        guard let codec = avcodec_find_encoder_by_name(name) else { throw .missing("avcodec_find_encoder_by_name") }
        try self.init(codec: codec)
    }

    /// An encoder context for the default encoder of `id`.
    convenience init(encoderFor id: AVCodecID) throws(FFmpegError) {
        guard let codec = avcodec_find_encoder(id) else { throw .missing("avcodec_find_encoder") }
        try self.init(codec: codec)
    }

    /// A decoder context set up from a demuxed stream's parameters.
    convenience init(decoderFor parameters: UnsafePointer<AVCodecParameters>) throws(FFmpegError) {
        guard let codec = avcodec_find_decoder(parameters.pointee.codec_id) else {
            throw .missing("avcodec_find_decoder")
        }
        try self.init(codec: codec)
        try check(avcodec_parameters_to_context(pointer, parameters), "avcodec_parameters_to_context")
    }

    /// Opens the codec; `options` are private codec options (e.g. `["preset": "veryfast"]`).
    func open(options: [String: String] = [:]) throws(FFmpegError) {
        var dictionary: OpaquePointer? = nil
        defer { av_dict_free(&dictionary) }
        for (key, value) in options.sorted(by: { $0.key < $1.key }) {
            try check(av_dict_set(&dictionary, key, value, 0), "av_dict_set")
        }
        try check(avcodec_open2(pointer, codec, &dictionary), "avcodec_open2")
    }

    /// Copies this (opened encoder) context's parameters into a muxer stream's parameters.
    func copyParameters(to parameters: UnsafeMutablePointer<AVCodecParameters>) throws(FFmpegError) {
        try check(avcodec_parameters_from_context(parameters, pointer), "avcodec_parameters_from_context")
    }

    /// Encoder: sends one frame, or nil to start flushing. Returns false when the encoder wants its
    /// packets drained first (`EAGAIN`): receive, then send the same frame again.
    @discardableResult
    func send(frame: MediaFrame?) throws(FFmpegError) -> Bool {
        let result = avcodec_send_frame(pointer, frame?.pointer)
        if result == fz_AVERROR_EAGAIN() { return false }
        if result == fz_AVERROR_EOF() && frame == nil { return true }  // already flushing
        try check(result, "avcodec_send_frame")
        return true
    }

    /// Encoder: takes the next packet, if one is ready.
    func receivePacket(into packet: MediaPacket) throws(FFmpegError) -> ReceiveResult {
        try receiveResult(avcodec_receive_packet(pointer, packet.pointer), "avcodec_receive_packet")
    }

    /// Decoder: sends one packet, or nil to start flushing. Returns false on `EAGAIN` (drain frames first).
    @discardableResult
    func send(packet: MediaPacket?) throws(FFmpegError) -> Bool {
        let result = avcodec_send_packet(pointer, packet?.pointer)
        if result == fz_AVERROR_EAGAIN() { return false }
        if result == fz_AVERROR_EOF() && packet == nil { return true }
        try check(result, "avcodec_send_packet")
        return true
    }

    /// Decoder: takes the next decoded frame, if one is ready.
    func receiveFrame(into frame: MediaFrame) throws(FFmpegError) -> ReceiveResult {
        try receiveResult(avcodec_receive_frame(pointer, frame.pointer), "avcodec_receive_frame")
    }

    /// The codec's global header (`extradata`), e.g. SPS/PPS for H.264 with a global header.
    var extradata: [UInt8] {
        let size = Int(pointer.pointee.extradata_size)
        guard size > 0, let data = pointer.pointee.extradata else { return [] }
        return Array(UnsafeBufferPointer(start: data, count: size))
    }
}
