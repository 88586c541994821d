internal import CFFmpeg

/// A libav call that failed: the negative `AVERROR` code, the function that returned it, and
/// libav's own explanation (from `av_strerror`).
///
///     try check(avcodec_open2(context, codec, nil), "avcodec_open2")
///     // throws: avcodec_open2 failed: Invalid argument (code -22)
public struct FFmpegError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The negative libav error code (`AVERROR(errno)` or one of the `AVERROR_*` tags).
    public var code: Int32
    /// The libav function that returned the code, e.g. `avformat_open_input`.
    public var function: String

    public init(code: Int32, function: String) {
        self.code = code
        self.function = function
    }

    /// libav's text for the code, e.g. "Invalid data found when processing input".
    public var reason: String {
        var buffer = [CChar](repeating: 0, count: 256)
        return buffer.withUnsafeMutableBufferPointer { pointer in
            guard let base = pointer.baseAddress else { return "libav error \(code)" }
            return String(cString: fz_av_error_string(code, base, pointer.count))
        }
    }

    public var description: String { "\(function) failed: \(reason) (code \(code))" }

    /// A null result from an allocating call (`av_frame_alloc`, `avcodec_alloc_context3`, …): out of memory.
    static func allocationFailed(_ function: StaticString) -> FFmpegError {
        FFmpegError(code: fz_AVERROR(ENOMEM), function: "\(function)")
    }

    /// A required component (encoder, muxer, …) is not in this libav build.
    static func missing(_ function: StaticString) -> FFmpegError {
        FFmpegError(code: fz_AVERROR(ENOSYS), function: "\(function)")
    }
}

/// Returns `result` when it is not negative; otherwise throws it as an `FFmpegError` naming `function`.
@discardableResult
func check(_ result: Int32, _ function: StaticString) throws(FFmpegError) -> Int32 {
    if result < 0 { throw FFmpegError(code: result, function: "\(function)") }
    return result
}

/// What a `receive` call on a codec produced: `EAGAIN` and EOF are ordinary results, not errors.
public enum ReceiveResult: Equatable, Sendable {
    /// A frame or packet was written into the destination.
    case produced
    /// The codec needs more input before it can produce output (`AVERROR(EAGAIN)`).
    case needsInput
    /// The codec was flushed and has nothing more (`AVERROR_EOF`).
    case endOfStream
}

/// Maps the return code of `avcodec_receive_frame`/`avcodec_receive_packet` to a `ReceiveResult`.
func receiveResult(_ result: Int32, _ function: StaticString) throws(FFmpegError) -> ReceiveResult {
    if result >= 0 { return .produced }
    if result == fz_AVERROR_EAGAIN() { return .needsInput }
    if result == fz_AVERROR_EOF() { return .endOfStream }
    throw FFmpegError(code: result, function: "\(function)")
}
