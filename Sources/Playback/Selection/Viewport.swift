/// The player's drawing area in device pixels (points × scale) and the device orientation.
///
/// The quality selector never picks a rendition much larger than this area (see
/// `QualitySelector.viewportCap(variants:viewport:)`).
public struct Viewport: Sendable, Hashable {
    public var widthPixels: Int
    public var heightPixels: Int
    public var orientation: Orientation

    public init(widthPixels: Int, heightPixels: Int, orientation: Orientation) {
        self.widthPixels = widthPixels
        self.heightPixels = heightPixels
        self.orientation = orientation
    }
}
