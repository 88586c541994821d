/// The EXIF metadata of a photo as typed IFDs: the TIFF structure of a JPEG's APP1 `Exif` segment, a PNG `eXIf`
/// chunk or a HEIF `Exif` item, parsed by `TIFFReader` and written back by `TIFFWriter`.
///
/// The entries keep their source bytes and byte order; the IFD pointers (`ExifIFDPointer`, `GPSInfo`,
/// `InteroperabilityIFDPointer`) stay in their IFDs as placeholders the writer fills in. The MakerNote is an ExifIFD
/// entry like any other, with the offset it had (`IFDEntry.sourceOffset`), which the writer keeps.
public struct ExifMetadata: Sendable, Hashable {
    public var byteOrder: ByteOrder
    public var ifd0: IFD
    public var exif: IFD?
    public var gps: IFD?
    public var interop: IFD?
    /// The thumbnail's IFD.
    public var ifd1: IFD?
    /// The thumbnail's JPEG bytes (IFD1's JPEGInterchangeFormat), when they could be read.
    public var thumbnail: [UInt8]?

    public init(
        byteOrder: ByteOrder, ifd0: IFD, exif: IFD? = nil, gps: IFD? = nil, interop: IFD? = nil,
        ifd1: IFD? = nil, thumbnail: [UInt8]? = nil
    ) {
        self.byteOrder = byteOrder
        self.ifd0 = ifd0
        self.exif = exif
        self.gps = gps
        self.interop = interop
        self.ifd1 = ifd1
        self.thumbnail = thumbnail
    }

    /// The IFDs present, IFD0 first.
    public var ifds: [IFD] { [ifd0, exif, interop, gps, ifd1].compactMap { $0 } }

    /// The IFD of `kind`, if present.
    public func ifd(_ kind: IFDKind) -> IFD? {
        switch kind {
        case .ifd0: ifd0
        case .exif: exif
        case .gps: gps
        case .interop: interop
        case .ifd1: ifd1
        }
    }

    /// The decoded value of `tag` in the IFD of `kind`.
    public func value(_ tag: UInt16, in kind: IFDKind) -> TIFFValue? { ifd(kind)?[tag]?.value(byteOrder) }

    /// The Orientation tag's value (1–8 as defined; anything else as written), or nil when absent.
    public var orientation: UInt16? {
        guard case .shorts(let values)? = value(ExifTag.orientation, in: .ifd0) else { return nil }
        return values.first
    }

    /// The MakerNote entry, if any.
    public var makerNote: IFDEntry? { exif?[ExifTag.makerNote] }

    /// The metadata for an upright copy of the photo of `width` × `height` pixels: Orientation 1 (when the tag is
    /// present), the pixel dimensions of IFD0 (ImageWidth/ImageLength) and ExifIFD (PixelXDimension/
    /// PixelYDimension) set to the new size where the source has them, and the thumbnail (IFD1) dropped, since it
    /// shows the unfiltered picture in its old orientation. Every other entry is unchanged.
    public func forUprightCopy(width: Int, height: Int) -> ExifMetadata {
        var copy = self
        let order = byteOrder
        if copy.ifd0[ExifTag.orientation] != nil { copy.ifd0.set(.short(ExifTag.orientation, 1, order: order)) }
        func resize(_ ifd: inout IFD, _ tag: UInt16, _ value: Int) {
            guard let old = ifd[tag] else { return }
            ifd.set(.integer(tag, UInt32(clamping: value), preferring: old.type, order: order))
        }
        resize(&copy.ifd0, ExifTag.imageWidth, width)
        resize(&copy.ifd0, ExifTag.imageLength, height)
        if var exif = copy.exif {
            resize(&exif, ExifTag.pixelXDimension, width)
            resize(&exif, ExifTag.pixelYDimension, height)
            copy.exif = exif
        }
        copy.ifd1 = nil
        copy.thumbnail = nil
        return copy
    }
}
