internal import CFFmpeg

/// An owned input `AVFormatContext` (a demuxer over a file), closed in `deinit`.
final class InputFormatContext {
    private var context: UnsafeMutablePointer<AVFormatContext>?
    let pointer: UnsafeMutablePointer<AVFormatContext>

    /// Opens `path` and reads enough to know its streams.
    init(path: String) throws(FFmpegError) {
        var opened: UnsafeMutablePointer<AVFormatContext>? = nil
        // avformat_open_input frees the context itself on failure.
        try check(avformat_open_input(&opened, path, nil, nil), "avformat_open_input")
        guard let opened else { throw .allocationFailed("avformat_open_input") }
        context = opened
        pointer = opened
        try check(avformat_find_stream_info(opened, nil), "avformat_find_stream_info")
    }

    deinit { avformat_close_input(&context) }

    /// The index of the best stream of `type`, or nil.
    func bestStream(_ type: AVMediaType) -> Int? {
        let index = av_find_best_stream(pointer, type, -1, -1, nil, 0)
        return index >= 0 ? Int(index) : nil
    }

    func stream(_ index: Int) -> UnsafeMutablePointer<AVStream>? {
        guard index >= 0, index < Int(pointer.pointee.nb_streams), let streams = pointer.pointee.streams else {
            return nil
        }
        return streams[index]
    }

    /// Reads the next packet into `packet`; false at the end of the file.
    func read(into packet: MediaPacket) throws(FFmpegError) -> Bool {
        let result = av_read_frame(pointer, packet.pointer)
        if result == fz_AVERROR_EOF() { return false }
        try check(result, "av_read_frame")
        return true
    }

    /// The container's duration in seconds, if it declares one.
    var durationSeconds: Double? {
        let duration = pointer.pointee.duration
        guard duration > 0, duration != fz_AV_NOPTS_VALUE() else { return nil }
        return Double(duration) / Double(AV_TIME_BASE)
    }
}
