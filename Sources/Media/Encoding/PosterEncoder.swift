internal import CFFmpeg
import FilterKit

/// Encodes one picture as a JPEG (libavcodec's MJPEG encoder), for `poster.jpg`.
public enum PosterEncoder {
    /// JPEG bytes of `frame` (RGBA or YUV 4:2:0) at its own size, quality scale `quality` (2 best … 31).
    public static func jpeg(from frame: Frame, quality: Int = 3) throws(FFmpegError) -> [UInt8] {
        // JPEG 4:2:0 needs even sizes for clean chroma; odd sizes are rounded down.
        let width = max(2, frame.width & ~1), height = max(2, frame.height & ~1)
        let encoder = try CodecContext(encoderNamed: "mjpeg")
        let context = encoder.pointer
        context.pointee.width = Int32(width)
        context.pointee.height = Int32(height)
        context.pointee.pix_fmt = AV_PIX_FMT_YUVJ420P
        context.pointee.time_base = AVRational(num: 1, den: 1)
        context.pointee.flags |= Int32(AV_CODEC_FLAG_QSCALE)
        context.pointee.global_quality = Int32(FF_QP2LAMBDA) * Int32(max(2, min(quality, 31)))
        try encoder.open()
        // JPEG (JFIF) is BT.601, full range.
        let scaler = try Scaler(
            from: frame.width, frame.height, frame.pixelFormat, to: width, height, AV_PIX_FMT_YUVJ420P, matrix: .bt601
        )
        let input = try MediaFrame()
        try input.allocatePicture(width: width, height: height, pixelFormat: AV_PIX_FMT_YUVJ420P)
        try scaler.scale(frame, into: input)
        input.presentationTime = 0
        input.pointer.pointee.quality = context.pointee.global_quality
        input.pointer.pointee.pict_type = AV_PICTURE_TYPE_I
        try encoder.send(frame: input)
        try encoder.send(frame: nil)
        let packet = try MediaPacket()
        while try encoder.receivePacket(into: packet) == .produced {
            let bytes = packet.bytes
            if !bytes.isEmpty { return bytes }
        }
        throw FFmpegError(code: -1, function: "avcodec_receive_packet")
    }
}
