import FilterKit
import PhotoMetadata

/// A photo decoded to RGBA pixels, with the metadata to carry and what makes the pixels upright.
public struct DecodedPhoto: Sendable {
    public var format: PhotoFormat
    /// The pixels as stored in the file (`.rgba`, packed rows).
    public var frame: Frame
    /// What turns `frame` upright: the EXIF Orientation for JPEG and PNG; `.up` for HEIF, whose own
    /// transformations (irot, imir) libheif has applied (HEIF readers ignore the EXIF Orientation).
    public var orientation: ImageOrientation
    public var metadata: CarriedMetadata
    /// The decoder's complaints about damaged pixel data that it still decoded (libjpeg's "Corrupt JPEG data").
    public var warnings: [MetadataWarning]
    /// A JPEG source's chrominance subsampling, which a JPEG output keeps (4:4:4, 4:2:2 or 4:2:0; else 4:2:0).
    var jpegSubsampling: TurboJPEGCompressor.Subsampling?
}
