import MediaTime

/// A frame the camera delivered: its picture and when it was taken.
public struct CameraFrame: Sendable, Hashable {
    /// The nominal frame number.
    public var index: Int
    public var timestamp: Timestamp
    public var image: Frame

    public init(index: Int, timestamp: Timestamp, image: Frame) {
        self.index = index
        self.timestamp = timestamp
        self.image = image
    }
}
