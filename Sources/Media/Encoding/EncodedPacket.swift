import Packaging

/// One compressed frame handed from an encoder to a muxer: a value, so it may cross tasks.
public struct EncodedPacket: Sendable {
    public var bytes: [UInt8]
    /// Presentation and decoding times in the encoder's time base.
    public var presentationTime: Int64
    public var decodingTime: Int64
    public var duration: Int64
    public var isKeyframe: Bool

    public init(bytes: [UInt8], presentationTime: Int64, decodingTime: Int64, duration: Int64, isKeyframe: Bool) {
        self.bytes = bytes
        self.presentationTime = presentationTime
        self.decodingTime = decodingTime
        self.duration = duration
        self.isKeyframe = isKeyframe
    }
}
