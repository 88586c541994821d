// libFuzzer entry point for the photo metadata readers and writers: TIFF/EXIF, JPEG segments, PNG chunks, ICC, XMP.
//
// Not part of Package.swift: `scripts/fuzz.sh photo-metadata` compiles this file together with Sources/PhotoMetadata
// as one module (`swiftc -sanitize=fuzzer,address -parse-as-library`). Every call below promises "never traps" for
// any bytes, and what a reader returns must write and read back; the sanitizer turns a broken promise into a crash.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPhotoMetadata(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = size > 0 && data != nil ? Array(UnsafeBufferPointer(start: data, count: size)) : []

    // The bytes as a TIFF structure (an APP1 payload after "Exif\0\0", a PNG eXIf chunk, a HEIF Exif item).
    let tiff = TIFFReader.read(bytes, limits: TIFFLimits(maximumBytes: 1 << 20))
    if let metadata = tiff.metadata {
        for placement in [TIFFWriter.MakerNotePlacement.keepOffset, .relocate, .drop] {
            let written = TIFFWriter.write(metadata.forUprightCopy(width: 4032, height: 3024), makerNote: placement)
            if TIFFReader.read(written.bytes).metadata == nil { fatalError("written EXIF does not read back") }
        }
        var warnings: [MetadataWarning] = []
        _ = GPSLocation.read(metadata, warnings: &warnings)
    }

    // As a JPEG (with SOI in front when it has none) and as a PNG (with the signature in front).
    let jpeg = JPEGStructure.isJPEG(bytes) ? bytes : [0xFF, 0xD8] + bytes
    if let structure = JPEGStructure.scan(jpeg).structure {
        let metadata = CarriedMetadata.read(jpeg: jpeg, structure: structure)
        let upright = metadata.forUprightCopy(width: 640, height: 480)
        let written = JPEGMetadataWriter.write(upright, into: [0xFF, 0xD8, 0xFF, 0xD9])
        _ = JPEGStructure.scan(written.bytes).structure.map { CarriedMetadata.read(jpeg: written.bytes, structure: $0) }
        let details = PhotoDetails(format: "JPEG", storedWidth: structure.frame?.width, storedHeight: structure.frame?.height,
                                   fileSizeBytes: jpeg.count, metadata: metadata)
        _ = (details.camera, details.shutterSpeed, details.aperture, details.focalLength, details.captureTime?.iso8601,
             details.location?.mapLink, details.fileSize)
    }
    let png = PNGStructure.isPNG(bytes) ? bytes : PNGStructure.signature + bytes
    if let structure = PNGStructure.scan(png) {
        _ = PNGMetadataWriter.write(structure.metadata, compressedICCProfile: structure.compressedICCProfile, into: png)
    }

    // As an ICC profile and an XMP packet.
    _ = ICCProfile(bytes)?.name
    _ = XMPPacket.forUprightCopy(bytes, width: 1, height: 100_000)
    return 0
}
