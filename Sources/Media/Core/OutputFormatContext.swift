internal import CFFmpeg

/// An owned output `AVFormatContext` (a muxer), writing into in-memory buffers: each `beginBuffer()`
/// starts a fresh buffer and `endBuffer()` returns its bytes, so the caller decides which file they go
/// to (and writes it under a temporary name first). Freed in `deinit`. Confined to one task.
final class OutputFormatContext {
    private var context: UnsafeMutablePointer<AVFormatContext>?
    let pointer: UnsafeMutablePointer<AVFormatContext>

    /// A muxer by short name: `mpegts`, `mp4`, `webvtt`, …
    init(formatName: String) throws(FFmpegError) {
        var created: UnsafeMutablePointer<AVFormatContext>? = nil
        try check(avformat_alloc_output_context2(&created, nil, formatName, nil), "avformat_alloc_output_context2")
        guard let created else { throw .allocationFailed("avformat_alloc_output_context2") }
        context = created
        pointer = created
    }

    deinit {
        _ = try? endBuffer()
        avformat_free_context(context)
    }

    /// Adds a stream described by an opened encoder; returns its index.
    func addStream(from encoder: CodecContext) throws(FFmpegError) -> Int {
        guard let stream = avformat_new_stream(pointer, nil) else { throw .allocationFailed("avformat_new_stream") }
        try encoder.copyParameters(to: stream.pointee.codecpar)
        stream.pointee.time_base = encoder.pointer.pointee.time_base
        return Int(stream.pointee.index)
    }

    /// The time base the muxer chose for stream `index` (valid after `writeHeader`).
    func timeBase(ofStream index: Int) -> AVRational {
        guard let streams = pointer.pointee.streams, let stream = streams[index] else {
            return AVRational(num: 1, den: 90_000)
        }
        return stream.pointee.time_base
    }

    /// Sets a private option of the muxer (e.g. `movflags`).
    func setOption(_ name: String, _ value: String) throws(FFmpegError) {
        guard let priv = pointer.pointee.priv_data else { return }
        try check(av_opt_set(priv, name, value, 0), "av_opt_set")
    }

    /// Starts collecting output in a new memory buffer.
    func beginBuffer() throws(FFmpegError) {
        _ = try endBuffer()
        try check(avio_open_dyn_buf(&pointer.pointee.pb), "avio_open_dyn_buf")
    }

    /// The number of bytes written into the current buffer so far.
    var bufferPosition: Int {
        guard let pb = pointer.pointee.pb else { return 0 }
        return Int(avio_tell(pb))
    }

    /// Closes the current buffer and returns everything written into it (empty when none is open).
    @discardableResult
    func endBuffer() throws(FFmpegError) -> [UInt8] {
        guard let pb = pointer.pointee.pb else { return [] }
        var data: UnsafeMutablePointer<UInt8>? = nil
        let size = avio_close_dyn_buf(pb, &data)
        pointer.pointee.pb = nil
        defer { av_free(data) }
        guard size > 0, let data else { return [] }
        return Array(UnsafeBufferPointer(start: data, count: Int(size)))
    }

    func writeHeader() throws(FFmpegError) {
        try check(avformat_write_header(pointer, nil), "avformat_write_header")
    }

    /// Writes one packet as is (no interleaving: one stream per muxer).
    func write(_ packet: MediaPacket) throws(FFmpegError) {
        try check(av_write_frame(pointer, packet.pointer), "av_write_frame")
    }

    /// Flushes what the muxer holds back (a pending fragment or PES) into the current buffer.
    func flush() throws(FFmpegError) {
        try check(av_write_frame(pointer, nil), "av_write_frame")
    }

    func writeTrailer() throws(FFmpegError) {
        try check(av_write_trailer(pointer), "av_write_trailer")
    }
}
