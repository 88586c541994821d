import FilterzTestSupport
import PhotoMetadata
import Testing

/// Metadata in JPEG segments and PNG chunks: found, joined, written back, and what is not carried said so.
@Suite struct ContainerMetadataTests {
    /// A JPEG segment: marker, length, payload.
    static func segment(_ marker: UInt8, _ payload: [UInt8]) -> [UInt8] {
        [0xFF, marker, UInt8((payload.count + 2) >> 8), UInt8((payload.count + 2) & 0xFF)] + payload
    }

    /// The segments of a JPEG without image data: SOI, `segments`, a frame header, SOS, EOI.
    static func jpeg(_ segments: [[UInt8]], width: Int = 640, height: Int = 480, components: Int = 3) -> [UInt8] {
        var sof: [UInt8] = [
            8, UInt8(height >> 8), UInt8(height & 0xFF), UInt8(width >> 8), UInt8(width & 0xFF), UInt8(components),
        ]
        for id in 1...components { sof += [UInt8(id), 0x11, 0] }
        return [0xFF, 0xD8] + segments.flatMap { $0 } + segment(0xC0, sof) + segment(0xDA, [1, 1, 0, 0, 63, 0]) + [
            0x12, 0x34, 0xFF, 0xD9,
        ]
    }

    static func exifSegment(_ metadata: ExifMetadata) -> [UInt8] {
        segment(0xE1, Array("Exif\0\0".utf8) + TIFFWriter.write(metadata).bytes)
    }

    static func iccChunk(_ sequence: Int, of total: Int, _ data: [UInt8]) -> [UInt8] {
        segment(0xE2, Array("ICC_PROFILE\0".utf8) + [UInt8(sequence), UInt8(total)] + data)
    }

    /// A minimal ICC profile: header (with `acsp`, colour space, class) and a `desc` tag.
    static func iccProfile(name: String, colourSpace: String = "RGB ", unicode: Bool = false) -> [UInt8] {
        let be = ByteOrder.bigEndian
        var tag: [UInt8]
        if unicode {
            let text = name.utf16.flatMap { be.bytes($0) }
            tag = Array("mluc".utf8) + [0, 0, 0, 0] + be.bytes(UInt32(2)) + be.bytes(UInt32(12))
            tag += Array("deDE".utf8) + be.bytes(UInt32(4)) + be.bytes(UInt32(40))  // "xy" in UTF-16
            tag += Array("enUS".utf8) + be.bytes(UInt32(text.count)) + be.bytes(UInt32(44))
            tag += Array("xy".utf16.flatMap { be.bytes($0) }) + text
        } else {
            tag = Array("desc".utf8) + [0, 0, 0, 0] + be.bytes(UInt32(name.utf8.count + 1)) + Array(name.utf8) + [0]
        }
        var header = [UInt8](repeating: 0, count: 128)
        header.replaceSubrange(12..<16, with: Array("mntr".utf8))
        header.replaceSubrange(16..<20, with: Array(colourSpace.utf8))
        header.replaceSubrange(36..<40, with: Array("acsp".utf8))
        let table = be.bytes(UInt32(1)) + Array("desc".utf8) + be.bytes(UInt32(144)) + be.bytes(UInt32(tag.count))
        var profile = header + table + tag
        profile.replaceSubrange(0..<4, with: be.bytes(UInt32(profile.count)))
        return profile
    }

    @Test func theICCProfileIsJoinedFromItsChunksInSequenceOrder() throws {
        let profile = Self.iccProfile(name: "Display P3") + [UInt8](repeating: 7, count: 5000)
        let parts = [Array(profile[0..<2000]), Array(profile[2000..<4000]), Array(profile[4000...])]
        let bytes = Self.jpeg([
            Self.iccChunk(2, of: 3, parts[1]), Self.iccChunk(3, of: 3, parts[2]), Self.iccChunk(1, of: 3, parts[0]),
        ])
        let structure = try #require(JPEGStructure.scan(bytes).structure)
        let metadata = CarriedMetadata.read(jpeg: bytes, structure: structure)
        #expect(metadata.iccProfile == profile)
        #expect(metadata.icc?.name == "Display P3")
        #expect(metadata.icc?.colourSpace == "RGB")
        #expect(metadata.warnings.isEmpty)
    }

    @Test(arguments: [[1, 3], [1, 1, 2], [0, 1]])
    func aMissingOrRepeatedICCChunkDropsTheProfile(_ sequences: [Int]) throws {
        let total = sequences.max() ?? 1
        let bytes = Self.jpeg(sequences.map { Self.iccChunk($0, of: total == 3 ? 3 : 2, [1, 2, 3]) })
        let metadata = CarriedMetadata.read(jpeg: bytes, structure: try #require(JPEGStructure.scan(bytes).structure))
        #expect(metadata.iccProfile == nil)
        #expect(metadata.warnings.codes == ["jpeg.icc-chunks"])
    }

    @Test func aLargeProfileIsWrittenInChunksAndReadBack() throws {
        let profile = Self.iccProfile(name: "Big") + (0..<150_000).map { UInt8($0 % 253) }
        let written = JPEGMetadataWriter.write(CarriedMetadata(iccProfile: profile), into: Self.jpeg([]))
        let structure = try #require(JPEGStructure.scan(written.bytes).structure)
        #expect(structure.segments.filter { $0.marker == 0xE2 }.count == 3)
        #expect(CarriedMetadata.read(jpeg: written.bytes, structure: structure).iccProfile == profile)
    }

    @Test func profilesAreNamedFromVersion2And4DescriptionTags() {
        #expect(ICCProfile(Self.iccProfile(name: "sRGB IEC61966-2.1"))?.name == "sRGB IEC61966-2.1")
        #expect(ICCProfile(Self.iccProfile(name: "Display P3", unicode: true))?.name == "Display P3")
        #expect(ICCProfile(Self.iccProfile(name: "Grey", colourSpace: "GRAY"))?.colourSpace == "GRAY")
        #expect(ICCProfile([UInt8](repeating: 0, count: 200)) == nil)
        // A tag table pointing past the end: no name, no trap.
        var broken = Self.iccProfile(name: "x")
        broken.replaceSubrange(136..<140, with: ByteOrder.bigEndian.bytes(UInt32(1_000_000)))
        #expect(ICCProfile(broken)?.name == nil)
    }

    @Test func segmentsThatAreNotCarriedAreNamedInNotes() throws {
        let bytes = Self.jpeg([
            Self.segment(0xE0, Array("JFIF\0".utf8) + [1, 1, 1, 0, 72, 0, 72, 0, 0]),
            Self.segment(0xE2, Array("MPF\0".utf8) + [0, 0, 0, 0]),
            Self.segment(0xEE, Array("Adobe".utf8) + [0, 100, 0, 0, 0, 0, 1]),
            Self.segment(0xFE, Array("a comment".utf8)),
            Self.segment(0xED, Array("Photoshop 3.0\0".utf8) + [1, 2, 3]),
        ])
        let structure = try #require(JPEGStructure.scan(bytes).structure)
        #expect(structure.adobeTransform == 1)
        let metadata = CarriedMetadata.read(jpeg: bytes, structure: structure)
        #expect(metadata.jfif?.count == 14)
        #expect(metadata.comments == [Array("a comment".utf8)])
        #expect(metadata.photoshop?.count == 17)
        #expect(
            metadata.warnings.map(\.message) == [
                "APP2 segment \"MPF\" at offset 20 is not carried",
                "APP14 segment \"Adobe\" at offset 32 is not carried",
            ])
    }

    @Test func theWriterPutsMetadataAfterSOIAndReplacesTheEncodersJFIF() throws {
        var exif = TIFFRoundTripTests.everyType(.bigEndian)
        exif.ifd1 = nil
        exif.thumbnail = nil
        let xmp = Array("<x:xmpmeta><rdf:Description tiff:Orientation=\"1\"/></x:xmpmeta>".utf8)
        let encoded = Self.jpeg([Self.segment(0xE0, Array("JFIF\0".utf8) + [1, 1, 0, 0, 1, 0, 1, 0, 0])])
        let written = JPEGMetadataWriter.write(CarriedMetadata(exif: exif, xmp: xmp, comments: [[65]]), into: encoded)
        #expect(written.warnings.isEmpty)
        let structure = try #require(JPEGStructure.scan(written.bytes).structure)
        #expect(structure.segments.map(\.marker) == [0xE1, 0xE1, 0xFE, 0xC0])
        let back = CarriedMetadata.read(jpeg: written.bytes, structure: structure)
        #expect(back.xmp == xmp)
        #expect(back.exif.map { TIFFRoundTripTests.content($0.exif) } == TIFFRoundTripTests.content(exif.exif))
        #expect(back.jfif == nil)
        // The image data after the headers is the encoder's, untouched.
        #expect(Array(written.bytes.suffix(4)) == [0x12, 0x34, 0xFF, 0xD9])
    }

    @Test func exifTooLargeForAnAPP1SegmentLosesItsMakerNoteFirst() throws {
        var exif = TIFFRoundTripTests.everyType(.littleEndian)
        exif.ifd1 = nil
        exif.thumbnail = nil
        // A 40 KB MakerNote at 30,000: kept there, the segment is too large; moved, it fits.
        exif.exif?.set(
            IFDEntry(
                tag: ExifTag.makerNote, type: .undefined, count: 40_000,
                bytes: [UInt8](repeating: 9, count: 40_000), sourceOffset: 30_000))
        let moved = JPEGMetadataWriter.write(CarriedMetadata(exif: exif), into: Self.jpeg([]))
        #expect(moved.warnings.codes == ["exif.makernote-moved"])
        let movedBack = CarriedMetadata.read(
            jpeg: moved.bytes, structure: try #require(JPEGStructure.scan(moved.bytes).structure))
        #expect(movedBack.exif?.makerNote?.bytes.count == 40_000)
        // 70 KB fits nowhere: dropped, the rest written.
        exif.exif?.set(
            IFDEntry(
                tag: ExifTag.makerNote, type: .undefined, count: 70_000,
                bytes: [UInt8](repeating: 9, count: 70_000), sourceOffset: 100))
        let dropped = JPEGMetadataWriter.write(CarriedMetadata(exif: exif), into: Self.jpeg([]))
        #expect(dropped.warnings.codes == ["exif.makernote-dropped"])
        let back = CarriedMetadata.read(
            jpeg: dropped.bytes, structure: try #require(JPEGStructure.scan(dropped.bytes).structure))
        #expect(back.exif?.makerNote == nil)
        #expect(back.exif?.orientation == 6)
    }

    @Test func brokenSegmentsAreWarningsNotTraps() throws {
        let good = Self.jpeg([Self.segment(0xFE, [1, 2, 3])])
        // Stray bytes before a marker, fill bytes, a length past the end.
        let stray = Array(good[0..<2]) + [0x00, 0x11] + [0xFF, 0xFF] + Array(good[2...])
        let scanned = JPEGStructure.scan(stray)
        #expect(scanned.warnings.codes == ["jpeg.stray-bytes"])
        #expect(scanned.structure?.frame?.width == 640)
        let cut = Array(good.prefix(8))
        #expect(JPEGStructure.scan(cut).warnings.codes == ["jpeg.segment-length", "jpeg.no-frame"])
        #expect(JPEGStructure.scan([0xFF, 0xD8]).warnings.codes == ["jpeg.no-frame"])
        #expect(JPEGStructure.scan([0x89, 0x50]).structure == nil)
        #expect(JPEGStructure.scan(Self.jpeg([], components: 4)).structure?.isCMYK == true)
    }

    // MARK: PNG

    static func png(_ chunks: [[UInt8]]) -> [UInt8] {
        let ihdr = PNGTestChunk.chunk(
            "IHDR", ByteOrder.bigEndian.bytes(UInt32(64)) + ByteOrder.bigEndian.bytes(UInt32(48)) + [8, 6, 0, 0, 0])
        return PNGStructure.signature + ihdr + chunks.flatMap { $0 } + PNGTestChunk.chunk("IDAT", [1, 2, 3])
            + PNGTestChunk.chunk("IEND", [])
    }

    @Test func pngChunksGiveExifXMPAndTheCompressedProfile() throws {
        let exif = TIFFRoundTripTests.everyType(.bigEndian)
        let xmp = Array("<x:xmpmeta/>".utf8)
        let bytes = Self.png([
            PNGTestChunk.chunk("eXIf", TIFFWriter.write(exif).bytes),
            PNGTestChunk.chunk("iTXt", Array("XML:com.adobe.xmp".utf8) + [0, 0, 0, 0, 0] + xmp),
            PNGTestChunk.chunk("iCCP", Array("Display P3".utf8) + [0, 0, 0x78, 0x9C, 1, 2]),
            PNGTestChunk.chunk("tEXt", Array("Comment\0hello".utf8)),
        ])
        let structure = try #require(PNGStructure.scan(bytes))
        let header = try #require(structure.header)
        #expect(
            (header.width, header.height, header.bitDepth, header.colourType, header.isInterlaced) == (
                64, 48, 8, 6, false
            ))
        #expect(structure.metadata.exif?.orientation == 6)
        #expect(structure.metadata.xmp == xmp)
        #expect(structure.compressedICCProfile?.name == "Display P3")
        #expect(structure.compressedICCProfile?.data == [0x78, 0x9C, 1, 2])
        #expect(structure.metadata.warnings.isEmpty)
    }

    @Test func pngWithABadCRCOrACutChunkWarns() throws {
        let bytes = Self.png([PNGTestChunk.chunk("tEXt", Array("a\0b".utf8), crc: 1)])
        #expect(PNGStructure.scan(bytes)?.metadata.warnings.codes == ["png.crc"])
        let cut = Array(Self.png([]).prefix(47))
        #expect(PNGStructure.scan(cut)?.metadata.warnings.codes == ["png.chunk-length"])
        #expect(PNGStructure.scan(Array(PNGStructure.signature) + [0, 0]) != nil)
    }

    @Test func thePNGWriterInsertsAfterIHDRAndDropsSRGBForAProfile() throws {
        let encoded = Self.png([PNGTestChunk.chunk("sRGB", [0]), PNGTestChunk.chunk("gAMA", [0, 0, 0xB1, 0x8F])])
        let xmp = Array("<x:xmpmeta/>".utf8)
        var exif = TIFFRoundTripTests.everyType(.littleEndian)
        exif.ifd1 = nil
        exif.thumbnail = nil
        let written = PNGMetadataWriter.write(
            CarriedMetadata(exif: exif, xmp: xmp), compressedICCProfile: ("P3", [0x78, 0x9C]), into: encoded)
        let structure = try #require(PNGStructure.scan(written.bytes))
        #expect(structure.chunks.map(\.type) == ["IHDR", "iCCP", "eXIf", "iTXt", "IDAT", "IEND"])
        #expect(structure.metadata.warnings.isEmpty)
        #expect(structure.metadata.xmp == xmp)
        #expect(
            structure.metadata.exif.map { TIFFRoundTripTests.content($0.exif) } == TIFFRoundTripTests.content(exif.exif)
        )
        let plain = PNGMetadataWriter.write(CarriedMetadata(), compressedICCProfile: nil, into: encoded)
        #expect(plain.bytes == encoded)
    }

    // MARK: XMP

    @Test func xmpOrientationAndSizeAreRewrittenInBothForms() {
        let packet = Array(
            """
            <?xpacket begin="" id="W5M0MpCehiHzreSzNTczkc9d"?><x:xmpmeta><rdf:Description tiff:Orientation="6" \
            exif:PixelXDimension='4032'><exif:PixelYDimension>3024</exif:PixelYDimension><dc:title>tiff:Orientation="6"?</dc:title>\
            </rdf:Description></x:xmpmeta>\(String(repeating: " ", count: 40))<?xpacket end="w"?>
            """.utf8)
        let edited = XMPPacket.forUprightCopy(packet, width: 3024, height: 4032)
        #expect(XMPPacket.number(of: "tiff:Orientation", in: edited) == 1)
        #expect(XMPPacket.number(of: "exif:PixelXDimension", in: edited) == 3024)
        #expect(XMPPacket.number(of: "exif:PixelYDimension", in: edited) == 4032)
        #expect(edited.count == packet.count, "the padding absorbs the change of length")
        // Text that only looks like the property is not touched: the title still says "6".
        #expect(String(decoding: edited, as: UTF8.self).contains("<dc:title>tiff:Orientation=\"6\"?</dc:title>"))
        #expect(
            XMPPacket.forUprightCopy(Array("no properties".utf8), width: 1, height: 1) == Array("no properties".utf8))
    }
}
