internal import CFFmpeg
import FilterKit

/// Encodes one picture as a PNG with libavcodec's PNG encoder (lossless, 8-bit RGB), for `filterz preview`.
public enum PNGEncoder {
    /// PNG file bytes of `frame` (RGBA — alpha is dropped — or YUV 4:2:0, converted by libswscale).
    /// - Throws: `FFmpegError` naming the libav call that failed.
    public static func png(from frame: Frame) throws(FFmpegError) -> [UInt8] {
        let encoder = try CodecContext(encoderNamed: "png")
        let context = encoder.pointer
        context.pointee.width = Int32(frame.width)
        context.pointee.height = Int32(frame.height)
        context.pointee.pix_fmt = AV_PIX_FMT_RGB24
        context.pointee.time_base = AVRational(num: 1, den: 1)
        try encoder.open()
        let scaler = try Scaler(
            from: frame.width, frame.height, frame.pixelFormat, to: frame.width, frame.height, AV_PIX_FMT_RGB24)
        let input = try MediaFrame()
        try input.allocatePicture(width: frame.width, height: frame.height, pixelFormat: AV_PIX_FMT_RGB24)
        try scaler.scale(frame, into: input)
        input.presentationTime = 0
        try encoder.send(frame: input)
        try encoder.send(frame: nil)
        let packet = try MediaPacket()
        var bytes: [UInt8] = []
        while try encoder.receivePacket(into: packet) == .produced {
            bytes += packet.bytes
            packet.unreference()
        }
        guard !bytes.isEmpty else { throw FFmpegError(code: fz_AVERROR_EOF(), function: "avcodec_receive_packet") }
        return bytes
    }
}
