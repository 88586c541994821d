internal import CFFmpeg

/// An owned `AVFrame`: one raw picture or block of audio samples, freed in `deinit`.
///
/// Either filled by a decoder (`CodecContext.receiveFrame(into:)`) or given its own buffers with
/// `allocatePicture(width:height:pixelFormat:)` / `allocateAudio(...)` and filled by the caller.
/// Confined to one task (not `Sendable`).
public final class MediaFrame {
    private var frame: UnsafeMutablePointer<AVFrame>?

    /// The owned pointer, valid for the life of this object.
    let pointer: UnsafeMutablePointer<AVFrame>

    public init() throws(FFmpegError) {
        guard let frame = av_frame_alloc() else { throw .allocationFailed("av_frame_alloc") }
        self.frame = frame
        self.pointer = frame
    }

    deinit { av_frame_free(&frame) }

    /// Drops the buffers and resets the fields (the frame stays allocated for reuse).
    public func unreference() { av_frame_unref(pointer) }

    /// Gives the frame its own picture buffers (32-byte aligned rows).
    func allocatePicture(width: Int, height: Int, pixelFormat: AVPixelFormat) throws(FFmpegError) {
        av_frame_unref(pointer)
        pointer.pointee.width = Int32(width)
        pointer.pointee.height = Int32(height)
        pointer.pointee.format = pixelFormat.rawValue
        try check(av_frame_get_buffer(pointer, 32), "av_frame_get_buffer")
    }

    /// Makes the buffers writable (copies them if an encoder still holds a reference).
    func makeWritable() throws(FFmpegError) {
        try check(av_frame_make_writable(pointer), "av_frame_make_writable")
    }

    public var width: Int { Int(pointer.pointee.width) }
    public var height: Int { Int(pointer.pointee.height) }

    /// Presentation time in the time base of whoever filled or will read the frame; nil for none.
    public var presentationTime: Int64? {
        get {
            let pts = pointer.pointee.pts
            return pts == fz_AV_NOPTS_VALUE() ? nil : pts
        }
        set { pointer.pointee.pts = newValue ?? fz_AV_NOPTS_VALUE() }
    }

    /// The best-effort timestamp a decoder computed (falls back to pts), nil for none.
    public var bestEffortTimestamp: Int64? {
        let ts = pointer.pointee.best_effort_timestamp
        if ts != fz_AV_NOPTS_VALUE() { return ts }
        return presentationTime
    }

    /// True when the decoder could not rebuild the whole picture from the data (damaged or cut-off input),
    /// as libav marks it (`AV_FRAME_FLAG_CORRUPT`, `decode_error_flags`).
    public var isCorrupt: Bool {
        pointer.pointee.flags & AV_FRAME_FLAG_CORRUPT != 0 || pointer.pointee.decode_error_flags != 0
    }

    /// Plane `index`: its base address and bytes per row.
    func plane(_ index: Int) -> (data: UnsafeMutablePointer<UInt8>?, stride: Int) {
        withUnsafePointer(to: &pointer.pointee.data) { tuple in
            tuple.withMemoryRebound(to: UnsafeMutablePointer<UInt8>?.self, capacity: 8) { data in
                withUnsafePointer(to: &pointer.pointee.linesize) { sizes in
                    sizes.withMemoryRebound(to: Int32.self, capacity: 8) { linesize in
                        (data[index], Int(linesize[index]))
                    }
                }
            }
        }
    }

    /// Copies `rows` rows of `bytesPerRow` bytes from `source` (rows `sourceStride` apart) into plane `index`.
    func copyIntoPlane(
        _ index: Int, from source: UnsafeBufferPointer<UInt8>, sourceStride: Int, bytesPerRow: Int, rows: Int
    ) {
        let (destination, stride) = plane(index)
        guard let destination, let base = source.baseAddress else { return }
        for row in 0..<rows {
            (destination + row * stride).update(from: base + row * sourceStride, count: bytesPerRow)
        }
    }

    /// Copies `rows` rows of `bytesPerRow` bytes out of plane `index` into `destination` (rows `destinationStride` apart).
    func copyFromPlane(
        _ index: Int, into destination: UnsafeMutableBufferPointer<UInt8>, destinationStride: Int, bytesPerRow: Int,
        rows: Int
    ) {
        let (source, stride) = plane(index)
        guard let source, let base = destination.baseAddress else { return }
        for row in 0..<rows {
            (base + row * destinationStride).update(from: source + row * stride, count: bytesPerRow)
        }
    }
}
