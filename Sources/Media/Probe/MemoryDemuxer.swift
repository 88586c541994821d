internal import CFFmpeg

/// A demuxer over bytes in memory (an init section and a segment, concatenated): an `AVIOContext` reading
/// from a Swift buffer, and the `AVFormatContext` on it. Both are freed in `deinit`.
final class MemoryDemuxer {
    /// The bytes and the read position, reached from libav's callbacks through the opaque pointer.
    private final class Source {
        let bytes: [UInt8]
        var position = 0
        init(_ bytes: [UInt8]) { self.bytes = bytes }
    }

    private let source: Source
    private var io: UnsafeMutablePointer<AVIOContext>?
    private var context: UnsafeMutablePointer<AVFormatContext>?
    let pointer: UnsafeMutablePointer<AVFormatContext>

    /// Opens `bytes` with the demuxer `formatName` (`mpegts`, `mov`), or lets libav probe when nil.
    init(bytes: [UInt8], formatName: String?) throws(FFmpegError) {
        source = Source(bytes)
        let bufferSize: Int32 = 64 * 1024
        guard let buffer = av_malloc(Int(bufferSize))?.assumingMemoryBound(to: UInt8.self) else {
            throw .allocationFailed("av_malloc")
        }
        let opaque = Unmanaged.passUnretained(source).toOpaque()
        guard let io = avio_alloc_context(buffer, bufferSize, 0, opaque, memoryRead, nil, memorySeek) else {
            av_free(buffer)
            throw .allocationFailed("avio_alloc_context")
        }
        self.io = io
        guard let allocated = avformat_alloc_context() else {
            Self.free(io: &self.io)
            throw .allocationFailed("avformat_alloc_context")
        }
        allocated.pointee.pb = io
        allocated.pointee.flags |= AVFMT_FLAG_CUSTOM_IO
        var opened: UnsafeMutablePointer<AVFormatContext>? = allocated
        let format = formatName.flatMap { av_find_input_format($0) }
        // avformat_open_input frees the context on failure (not the custom AVIOContext).
        let result = avformat_open_input(&opened, nil, format, nil)
        guard result >= 0, let opened else {
            Self.free(io: &self.io)
            throw FFmpegError(code: result < 0 ? result : fz_AVERROR(EINVAL), function: "avformat_open_input")
        }
        context = opened
        pointer = opened
    }

    deinit {
        avformat_close_input(&context)
        Self.free(io: &io)
    }

    private static func free(io: inout UnsafeMutablePointer<AVIOContext>?) {
        guard let current = io else { return }
        av_freep(&current.pointee.buffer)
        avio_context_free(&io)
    }

    /// Reads the next packet into `packet`; false at the end of the bytes.
    func read(into packet: MediaPacket) throws(FFmpegError) -> Bool {
        let result = av_read_frame(pointer, packet.pointer)
        if result == fz_AVERROR_EOF() { return false }
        try check(result, "av_read_frame")
        return true
    }

    var streamCount: Int { Int(pointer.pointee.nb_streams) }

    func stream(_ index: Int) -> UnsafeMutablePointer<AVStream>? {
        guard index >= 0, index < streamCount, let streams = pointer.pointee.streams else { return nil }
        return streams[index]
    }

    /// Copies at most `count` bytes from the current position into `buffer`; AVERROR_EOF at the end.
    fileprivate static func read(
        _ opaque: UnsafeMutableRawPointer?, _ buffer: UnsafeMutablePointer<UInt8>?, _ count: Int32
    ) -> Int32 {
        guard let opaque, let buffer else { return fz_AVERROR(EINVAL) }
        let source = Unmanaged<Source>.fromOpaque(opaque).takeUnretainedValue()
        let available = source.bytes.count - source.position
        guard available > 0 else { return fz_AVERROR_EOF() }
        let length = min(Int(count), available)
        source.bytes.withUnsafeBufferPointer { bytes in
            if let base = bytes.baseAddress { buffer.update(from: base + source.position, count: length) }
        }
        source.position += length
        return Int32(length)
    }

    /// Moves the position (SEEK_SET/CUR/END), or answers the size for AVSEEK_SIZE.
    fileprivate static func seek(_ opaque: UnsafeMutableRawPointer?, _ offset: Int64, _ whence: Int32) -> Int64 {
        guard let opaque else { return Int64(fz_AVERROR(EINVAL)) }
        let source = Unmanaged<Source>.fromOpaque(opaque).takeUnretainedValue()
        let size = Int64(source.bytes.count)
        let whence = whence & ~Int32(AVSEEK_FORCE)
        if whence == Int32(AVSEEK_SIZE) { return size }
        guard let target = seekTarget(offset, whence: whence, position: Int64(source.position), size: size) else {
            return Int64(fz_AVERROR(EINVAL))
        }
        source.position = Int(target)
        return target
    }

    /// Where a seek by `offset` from SEEK_SET, SEEK_CUR or SEEK_END lands in `size` bytes; nil past either end
    /// (an offset taken from a 64-bit box size near 2^63 included) or for another `whence`.
    static func seekTarget(_ offset: Int64, whence: Int32, position: Int64, size: Int64) -> Int64? {
        let base: Int64
        switch whence {
        case SEEK_SET: base = 0
        case SEEK_CUR: base = position
        case SEEK_END: base = size
        default: return nil
        }
        let (target, overflow) = base.addingReportingOverflow(offset)
        guard !overflow, target >= 0, target <= size else { return nil }
        return target
    }
}

private func memoryRead(_ opaque: UnsafeMutableRawPointer?, _ buffer: UnsafeMutablePointer<UInt8>?, _ count: Int32)
    -> Int32
{
    MemoryDemuxer.read(opaque, buffer, count)
}

private func memorySeek(_ opaque: UnsafeMutableRawPointer?, _ offset: Int64, _ whence: Int32) -> Int64 {
    MemoryDemuxer.seek(opaque, offset, whence)
}
