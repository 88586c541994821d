import PhotoMetadata
import Testing

/// The TIFF writer and reader together: every type in both byte orders, every IFD, the thumbnail, and the MakerNote
/// at its original offset.
@Suite struct TIFFRoundTripTests {
    /// Metadata with one entry of every TIFF type, in every IFD, and a thumbnail.
    static func everyType(_ order: ByteOrder) -> ExifMetadata {
        func entry(_ tag: UInt16, _ type: TIFFType, _ values: [[UInt8]]) -> IFDEntry {
            IFDEntry(tag: tag, type: type, count: UInt32(values.count), bytes: values.flatMap { $0 })
        }
        let o = order
        func double(_ value: Double) -> [UInt8] {
            let high = o.bytes(UInt32(value.bitPattern >> 32)), low = o.bytes(UInt32(value.bitPattern & 0xFFFF_FFFF))
            return o == .bigEndian ? high + low : low + high
        }
        var ifd0 = IFD(
            kind: .ifd0,
            entries: [
                entry(0x010F, .ascii, "Filterz\0".utf8.map { [$0] }),
                entry(0x0110, .ascii, "Model Two\0".utf8.map { [$0] }),
                IFDEntry.short(ExifTag.orientation, 6, order: o),
                entry(0x011A, .rational, [o.bytes(UInt32(72)) + o.bytes(UInt32(1))]),
                entry(0x0213, .short, [o.bytes(UInt16(1))]),
            ])
        ifd0.set(.long(ExifTag.exifIFDPointer, 0, order: o))
        ifd0.set(.long(ExifTag.gpsIFDPointer, 0, order: o))
        var exif = IFD(
            kind: .exif,
            entries: [
                entry(0x829A, .rational, [o.bytes(UInt32(1)) + o.bytes(UInt32(120))]),
                entry(0x9000, .undefined, "0232".utf8.map { [$0] }),
                entry(0x9204, .srational, [o.bytes(UInt32(bitPattern: -7)) + o.bytes(UInt32(10))]),
                entry(0x9286, .undefined, Array("ASCII\0\0\0a long user comment".utf8).map { [$0] }),
                entry(0xA002, .long, [o.bytes(UInt32(4032))]),
                entry(0xA003, .short, [o.bytes(UInt16(3024))]),
                entry(0xC001, .sbyte, [[0xFE], [0x02]]),
                entry(0xC002, .sshort, [o.bytes(UInt16(bitPattern: -300)), o.bytes(UInt16(5))]),
                entry(0xC003, .slong, [o.bytes(UInt32(bitPattern: -70000))]),
                entry(0xC004, .float, [o.bytes(Float(1.5).bitPattern)]),
                entry(0xC005, .double, [double(2.25)]),
                entry(0xC006, .byte, [[1], [2], [3], [4], [5]]),
            ])
        exif.set(.long(ExifTag.interopIFDPointer, 0, order: o))
        let interop = IFD(kind: .interop, entries: [entry(0x0001, .ascii, "R98\0".utf8.map { [$0] })])
        let gps = IFD(
            kind: .gps,
            entries: [
                entry(0x0000, .byte, [[2], [3], [0], [0]]),
                entry(0x0001, .ascii, [[UInt8(ascii: "S")], [0]]),
                entry(
                    0x0002, .rational,
                    [
                        o.bytes(UInt32(33)) + o.bytes(UInt32(1)), o.bytes(UInt32(52)) + o.bytes(UInt32(1)),
                        o.bytes(UInt32(3456)) + o.bytes(UInt32(100)),
                    ]),
                entry(0x0003, .ascii, [[UInt8(ascii: "E")], [0]]),
                entry(
                    0x0004, .rational,
                    [
                        o.bytes(UInt32(151)) + o.bytes(UInt32(1)), o.bytes(UInt32(12)) + o.bytes(UInt32(1)),
                        o.bytes(UInt32(0)) + o.bytes(UInt32(1)),
                    ]),
                entry(0x0005, .byte, [[1]]),
                entry(0x0006, .rational, [o.bytes(UInt32(25)) + o.bytes(UInt32(10))]),
            ])
        let ifd1 = IFD(kind: .ifd1, entries: [entry(0x0103, .short, [o.bytes(UInt16(6))])])
        return ExifMetadata(
            byteOrder: o, ifd0: ifd0, exif: exif, gps: gps, interop: interop, ifd1: ifd1,
            thumbnail: [0xFF, 0xD8, 0xFF, 0xD9, 1, 2, 3])
    }

    /// The entries as (tag, type, count, bytes), without the pointers and the thumbnail's offset and length (which the
    /// writer sets).
    static func content(_ ifd: IFD?) -> [String] {
        let written: Set<UInt16> = [
            ExifTag.exifIFDPointer, ExifTag.gpsIFDPointer, ExifTag.interopIFDPointer,
            ExifTag.jpegInterchangeFormat, ExifTag.jpegInterchangeFormatLength,
        ]
        return (ifd?.entries ?? []).filter { !written.contains($0.tag) }
            .map { "\($0.tag) \($0.type) \($0.count) \($0.bytes)" }
    }

    @Test(arguments: [ByteOrder.bigEndian, .littleEndian])
    func everyTypeAndIFDComesBackAsWritten(_ order: ByteOrder) throws {
        let metadata = Self.everyType(order)
        let written = TIFFWriter.write(metadata)
        #expect(written.warnings.isEmpty)
        #expect(Array(written.bytes.prefix(2)) == order.marker)
        let read = TIFFReader.read(written.bytes)
        #expect(read.warnings.isEmpty, "\(read.warnings)")
        let back = try #require(read.metadata)
        #expect(back.byteOrder == order)
        for kind in IFDKind.allCases {
            #expect(Self.content(back.ifd(kind)) == Self.content(metadata.ifd(kind)), "\(kind)")
        }
        #expect(back.thumbnail == metadata.thumbnail)
        #expect(back.orientation == 6)
        // Written again, the bytes are the same: the layout depends only on the entries.
        #expect(TIFFWriter.write(back).bytes == written.bytes)
    }

    @Test(arguments: [ByteOrder.bigEndian, .littleEndian])
    func valuesDecodeToTheirTypes(_ order: ByteOrder) throws {
        let back = try #require(TIFFReader.read(TIFFWriter.write(Self.everyType(order)).bytes).metadata)
        #expect(back.value(0x010F, in: .ifd0) == .ascii(["Filterz"]))
        #expect(back.value(0x829A, in: .exif) == .rationals([Rational(1, 120)]))
        #expect(back.value(0x9204, in: .exif) == .signedRationals([SignedRational(-7, 10)]))
        #expect(back.value(0xA002, in: .exif) == .longs([4032]))
        #expect(back.value(0xA003, in: .exif) == .shorts([3024]))
        #expect(back.value(0xC001, in: .exif) == .signedBytes([-2, 2]))
        #expect(back.value(0xC002, in: .exif) == .signedShorts([-300, 5]))
        #expect(back.value(0xC003, in: .exif) == .signedLongs([-70000]))
        #expect(back.value(0xC004, in: .exif) == .floats([1.5]))
        #expect(back.value(0xC005, in: .exif) == .doubles([2.25]))
        #expect(back.value(0xC006, in: .exif) == .bytes([1, 2, 3, 4, 5]))
        #expect(back.value(0x9000, in: .exif) == .undefined(Array("0232".utf8)))
        #expect(back.value(0x0001, in: .interop)?.text == "R98")
        var warnings: [MetadataWarning] = []
        let location = try #require(GPSLocation.read(back, warnings: &warnings))
        #expect(abs(location.latitude - -(33 + 52.0 / 60 + 34.56 / 3600)) < 1e-9)
        #expect(abs(location.longitude - (151 + 12.0 / 60)) < 1e-9)
        #expect(location.altitudeMetres == -2.5)
    }

    @Test func anUprightCopyHasOrientationOneTheNewSizeAndNoThumbnail() throws {
        let copy = Self.everyType(.littleEndian).forUprightCopy(width: 3024, height: 4032)
        #expect(copy.orientation == 1)
        #expect(copy.value(ExifTag.pixelXDimension, in: .exif) == .longs([3024]))
        // The source's type, when the value fits.
        #expect(copy.value(ExifTag.pixelYDimension, in: .exif) == .shorts([4032]))
        #expect(copy.ifd1 == nil && copy.thumbnail == nil)
        let back = try #require(TIFFReader.read(TIFFWriter.write(copy).bytes).metadata)
        #expect(back.ifd1 == nil)
        // Nothing else changed.
        let others = { (m: ExifMetadata) in
            Self.content(m.exif).filter { !$0.hasPrefix("40962 ") && !$0.hasPrefix("40963 ") }
        }
        #expect(others(back) == others(Self.everyType(.littleEndian)))
        #expect(Self.content(back.gps) == Self.content(Self.everyType(.littleEndian).gps))
    }

    /// A MakerNote whose inner offsets count from the TIFF header (as Canon's do) stays readable only where it was.
    @Test func theMakerNoteKeepsItsOffset() throws {
        var metadata = Self.everyType(.bigEndian)
        let note = (0..<600).map { UInt8($0 % 251) }
        metadata.exif?.set(
            IFDEntry(tag: ExifTag.makerNote, type: .undefined, count: 600, bytes: note, sourceOffset: 1500))
        let written = TIFFWriter.write(metadata)
        #expect(Array(written.bytes[1500..<2100]) == note)
        let back = try #require(TIFFReader.read(written.bytes).metadata)
        #expect(back.makerNote?.sourceOffset == 1500)
        #expect(back.makerNote?.bytes == note)
        #expect(Self.content(back.exif) == Self.content(metadata.exif))

        // Near the start, the other blocks go around it.
        metadata.exif?.set(
            IFDEntry(tag: ExifTag.makerNote, type: .undefined, count: 600, bytes: note, sourceOffset: 20))
        let early = TIFFWriter.write(metadata)
        #expect(Array(early.bytes[20..<620]) == note)
        #expect(TIFFReader.read(early.bytes).metadata.map { Self.content($0.exif) } == Self.content(metadata.exif))

        let moved = TIFFWriter.write(metadata, makerNote: .relocate)
        #expect(moved.warnings.codes == ["exif.makernote-moved"])
        #expect(TIFFReader.read(moved.bytes).metadata?.makerNote?.bytes == note)
        let dropped = TIFFWriter.write(metadata, makerNote: .drop)
        #expect(dropped.warnings.codes == ["exif.makernote-dropped"])
        #expect(TIFFReader.read(dropped.bytes).metadata?.makerNote == nil)
    }
}
