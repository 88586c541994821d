import FilterKit
import PhotoMetadata

/// A preset applied to a photo file, as the app does it: decode, turn upright (`ImageOrientation`), filter with the
/// one `FilterRenderer` (the renderer `preview`, `record` and `package` use), encode with the metadata carried
/// over (`CarriedMetadata.forUprightCopy`: Orientation 1, the new pixel dimensions, no stale thumbnail).
///
/// Memory: at most two RGBA copies of the photo are alive at once (stored and upright while turning it; upright
/// and filtered while rendering), plus the renderer's section buffers and the encoded bytes.
public struct PhotoPipeline: Sendable {
    public var renderer: FilterRenderer
    public var quality: Int
    /// What a photo may claim in its header to be decoded at all.
    public var limits: PhotoLimits

    public init(renderer: FilterRenderer, quality: Int = 92, limits: PhotoLimits = PhotoLimits()) {
        self.renderer = renderer
        self.quality = quality
        self.limits = limits
    }

    public struct Output: Sendable {
        public var bytes: [UInt8]
        public var format: PhotoFormat
        public var width: Int
        public var height: Int
        /// The source's metadata warnings, the decoder's, and notes on what was not carried.
        public var warnings: [MetadataWarning]
    }

    /// - Parameter admit: called with the photo's size once it is within `limits`, before it is decoded (a batch
    ///   waits there until the memory its pixels take is free).
    public func apply(
        to source: [UInt8], writing format: PhotoFormat,
        admit: PhotoLimits.Admission = { _, _ throws(PhotoError) in }
    ) throws(PhotoError) -> Output {
        var photo = try PhotoReader.decode(source, limits: limits, admit: admit)
        var warnings = photo.metadata.warnings + photo.warnings
        let upright = photo.orientation.apply(to: photo.frame)
        photo.frame = Frame(rgbaWidth: 0, height: 0)  // the stored pixels are not needed past here
        let filtered = renderer.renderImage(consume upright)
        let metadata = photo.metadata.forUprightCopy(width: filtered.width, height: filtered.height)
        warnings += metadata.warnings.dropFirst(photo.metadata.warnings.count)
        let encoded = try PhotoWriter.encode(filtered, metadata: metadata, as: format, quality: quality, like: photo)
        return Output(
            bytes: encoded.bytes, format: format, width: filtered.width, height: filtered.height,
            warnings: warnings + encoded.warnings)
    }
}
