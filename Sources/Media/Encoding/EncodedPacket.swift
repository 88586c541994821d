import Packaging

/// One compressed frame handed from an encoder to a muxer: a value, so it may cross tasks.
struct EncodedPacket: Sendable {
    var bytes: [UInt8]
    /// Presentation and decoding times in the encoder's time base.
    var presentationTime: Int64
    var decodingTime: Int64
    var duration: Int64
    var isKeyframe: Bool
}
