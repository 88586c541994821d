import PhotoMetadata
import Testing

/// Broken EXIF structures, each made by hand: the reader warns with a stable code, keeps what it could read, and
/// never traps.
@Suite struct MalformedTIFFTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var bytes: [UInt8]
        var limits = TIFFLimits()
        /// The warning codes expected, in order.
        var codes: [String]
        /// IFD0 tags still read.
        var ifd0Tags: [UInt16]
        var testDescription: String { name }
    }

    static let cases: [Case] = {
        var cases: [Case] = []
        let be = ByteOrder.bigEndian

        cases.append(
            Case(name: "shorter than a header", bytes: [0x4D, 0x4D, 0, 42, 0], codes: ["exif.truncated"], ifd0Tags: []))
        cases.append(
            Case(
                name: "no byte order mark", bytes: [0x4D, 0x49, 0, 42, 0, 0, 0, 8], codes: ["exif.byte-order"],
                ifd0Tags: []))
        cases.append(Case(name: "BigTIFF", bytes: RawTIFF(be, magic: 43).bytes, codes: ["exif.magic"], ifd0Tags: []))

        var past = RawTIFF(be, ifd0: 5000)
        past.put([0, 0], at: 8)
        cases.append(Case(name: "IFD0 past the end", bytes: past.bytes, codes: ["exif.ifd-offset"], ifd0Tags: []))

        var inHeader = RawTIFF(be, ifd0: 2)
        inHeader.put([0, 0, 0, 0], at: 8)
        cases.append(
            Case(name: "IFD0 inside the header", bytes: inHeader.bytes, codes: ["exif.ifd-offset"], ifd0Tags: []))

        var many = RawTIFF(be)
        many.ifd(at: 8, [many.short(0x0112, 6), many.short(0x0128, 2)], declaredCount: 500)
        cases.append(
            Case(
                name: "more entries declared than fit", bytes: many.bytes, codes: ["exif.entries-truncated"],
                ifd0Tags: [0x0112, 0x0128]))

        var valuePast = RawTIFF(be)
        valuePast.ifd(at: 8, [valuePast.entry(0x010F, 2, 40, be.bytes(UInt32(9000))), valuePast.short(0x0112, 3)])
        valuePast.put([0], at: 99)  // room for the 40 bytes, but not where the offset says
        cases.append(
            Case(name: "a value past the end", bytes: valuePast.bytes, codes: ["exif.value-offset"], ifd0Tags: [0x0112])
        )

        var huge = RawTIFF(be)
        huge.ifd(at: 8, [huge.entry(0x011A, 5, 0xFFFF_FFFF, be.bytes(UInt32(8))), huge.short(0x0112, 3)])
        cases.append(
            Case(name: "a count past the end", bytes: huge.bytes, codes: ["exif.count-past-end"], ifd0Tags: [0x0112]))

        var unknown = RawTIFF(be)
        unknown.ifd(at: 8, [unknown.entry(0x0131, 99, 1, [1, 2, 3, 4]), unknown.short(0x0112, 3)])
        cases.append(
            Case(name: "an unknown type", bytes: unknown.bytes, codes: ["exif.unknown-type"], ifd0Tags: [0x0112]))

        var selfLoop = RawTIFF(be)
        selfLoop.ifd(at: 8, [selfLoop.short(0x0112, 8)], next: 8)
        cases.append(
            Case(name: "IFD0's next IFD is IFD0", bytes: selfLoop.bytes, codes: ["exif.ifd-loop"], ifd0Tags: [0x0112]))

        var pointerLoop = RawTIFF(be)
        pointerLoop.ifd(at: 8, [pointerLoop.short(0x0112, 1), pointerLoop.long(0x8769, 8)])
        cases.append(
            Case(
                name: "ExifIFD pointer back to IFD0", bytes: pointerLoop.bytes, codes: ["exif.ifd-loop"],
                ifd0Tags: [0x0112]))

        var shared = RawTIFF(be)
        shared.ifd(at: 8, [shared.long(0x8769, 40), shared.long(0x8825, 40)])
        shared.ifd(at: 40, [shared.short(0x8827, 100)])
        cases.append(
            Case(
                name: "GPS and ExifIFD the same IFD", bytes: shared.bytes, codes: ["exif.ifd-loop"], ifd0Tags: [0x8769])
        )

        var deep = RawTIFF(be)
        deep.ifd(at: 8, [deep.long(0x8769, 40)])
        deep.ifd(at: 40, [deep.short(0x8827, 100), deep.long(0xA005, 80)])
        deep.ifd(at: 80, [deep.entry(0x0001, 2, 4, Array("R98\0".utf8))])
        cases.append(
            Case(
                name: "nested deeper than the limit", bytes: deep.bytes, limits: TIFFLimits(maximumDepth: 1),
                codes: ["exif.depth"], ifd0Tags: [0x8769]))
        cases.append(
            Case(
                name: "more IFDs than the limit", bytes: deep.bytes, limits: TIFFLimits(maximumIFDs: 2),
                codes: ["exif.ifd-count"], ifd0Tags: [0x8769]))

        var long = RawTIFF(be)
        long.ifd(at: 8, (0..<40).map { long.short(UInt16(0x1000 + $0), UInt16($0)) })
        cases.append(
            Case(
                name: "more entries than the limit", bytes: long.bytes, limits: TIFFLimits(maximumEntriesPerIFD: 10),
                codes: ["exif.entry-count"], ifd0Tags: (0..<10).map { UInt16(0x1000 + $0) }))

        var badPointer = RawTIFF(be)
        badPointer.ifd(at: 8, [badPointer.entry(0x8769, 2, 4, Array("abc\0".utf8)), badPointer.short(0x0112, 1)])
        cases.append(
            Case(
                name: "a pointer that is text", bytes: badPointer.bytes, codes: ["exif.pointer-type"],
                ifd0Tags: [0x0112]))

        var dangling = RawTIFF(be)
        dangling.ifd(at: 8, [dangling.long(0x8825, 7000), dangling.short(0x0112, 1)])
        cases.append(
            Case(
                name: "a GPS pointer past the end", bytes: dangling.bytes, codes: ["exif.ifd-offset"],
                ifd0Tags: [0x0112]))

        var thumb = RawTIFF(be)
        thumb.ifd(at: 8, [thumb.short(0x0112, 1)], next: 40)
        thumb.ifd(at: 40, [thumb.long(0x0201, 100), thumb.long(0x0202, 90_000)])
        cases.append(
            Case(
                name: "a thumbnail past the end", bytes: thumb.bytes, codes: ["exif.thumbnail-offset"],
                ifd0Tags: [0x0112]))

        var endless = RawTIFF(.littleEndian)
        endless.ifd(at: 8, [endless.short(0x0112, 1)], next: 40)
        endless.ifd(at: 40, [endless.short(0x0103, 6)], next: 8)
        cases.append(
            Case(name: "IFD1 names a next IFD", bytes: endless.bytes, codes: ["exif.extra-ifds"], ifd0Tags: [0x0112]))

        var cut = RawTIFF(be)
        cut.ifd(at: 8, [cut.short(0x0112, 1)])
        cases.append(
            Case(
                name: "the next-IFD offset cut off", bytes: Array(cut.bytes.dropLast(2)), codes: ["exif.next-offset"],
                ifd0Tags: [0x0112]))
        return cases
    }()

    @Test(arguments: cases)
    func malformedStructuresWarnAndKeepWhatTheyCan(_ c: Case) {
        let result = TIFFReader.read(c.bytes, limits: c.limits)
        #expect(result.warnings.codes == c.codes)
        #expect(result.metadata?.ifd0.entries.map(\.tag) ?? [] == c.ifd0Tags)
        // What was read can be written, and reads back without warnings (or with only the writer's own notes).
        if let metadata = result.metadata {
            let again = TIFFReader.read(TIFFWriter.write(metadata).bytes)
            #expect(again.warnings.isEmpty, "\(again.warnings)")
            #expect(again.metadata?.ifd0.entries.map(\.tag) == metadata.ifd0.entries.map(\.tag))
        }
    }

    /// TIFF asks for ascending tags, each once. A source that breaks both is read in that order with the first entry
    /// of a repeated tag kept (as the subscript reads it), one warning each, and written that way.
    @Test func entriesOutOfOrderOrRepeatedAreReadAndWrittenSortedWithTheFirstKept() throws {
        var raw = RawTIFF(.littleEndian)
        raw.ifd(
            at: 8,
            [
                raw.short(0x0112, 6), raw.entry(0x010F, 2, 4, Array("Cam\0".utf8)), raw.short(0x0112, 3),
                raw.short(0x0128, 2), raw.entry(0x010F, 2, 4, Array("Dup\0".utf8)), raw.short(0x0112, 8),
            ])
        let read = TIFFReader.read(raw.bytes)
        #expect(read.warnings.codes == ["exif.duplicate-tag", "exif.entry-order"])
        #expect(read.warnings.first?.message == "IFD0 repeats tags 0x112, 0x10F; the first entry of each is kept")
        let metadata = try #require(read.metadata)
        #expect(metadata.ifd0.entries.map(\.tag) == [0x010F, 0x0112, 0x0128])
        #expect(metadata.orientation == 6)
        #expect(metadata.value(0x010F, in: .ifd0)?.text == "Cam")
        let again = TIFFReader.read(TIFFWriter.write(metadata).bytes)
        #expect(again.warnings.isEmpty, "\(again.warnings)")
        #expect(again.metadata == metadata)

        // A model built out of order (not by the reader) is written in order too.
        let o = ByteOrder.bigEndian
        let built = ExifMetadata(
            byteOrder: o,
            ifd0: IFD(
                kind: .ifd0,
                entries: [.short(0x0112, 6, order: o), .short(0x0100, 40, order: o), .short(0x0112, 3, order: o)]))
        let written = TIFFWriter.write(built).bytes
        #expect(o.uint16(written, at: 8) == 2)
        #expect([o.uint16(written, at: 10), o.uint16(written, at: 22)] == [0x0100, 0x0112])
        #expect(TIFFReader.read(written).metadata?.orientation == 6)
    }

    /// A broken IFD can give one warning per entry; reported, each kind is one line with its count, where it first
    /// appeared.
    @Test func repeatedWarningsCollapseIntoOneLineWithACount() {
        var raw = RawTIFF(.bigEndian)
        raw.ifd(at: 8, (0..<60).map { raw.entry(UInt16(0x1000 + $0), 99, 1, [0, 0, 0, 0]) } + [raw.short(0x0112, 1)])
        let read = TIFFReader.read(raw.bytes)
        #expect(read.warnings.count == 60)
        let note = MetadataWarning(.note, code: "exif.thumbnail-dropped", "the thumbnail is dropped")
        let other = MetadataWarning(code: "exif.ifd-loop", "a loop")
        let collapsed = MetadataWarning.collapsingRepeats([note] + read.warnings.prefix(2) + [other] + read.warnings)
        #expect(
            collapsed.map(\.description) == [
                "note: the thumbnail is dropped [exif.thumbnail-dropped]",
                "warning: IFD0 tag 0x1000 has unknown type 99; dropped (its size is unknown) (and 61 more like it) [exif.unknown-type]",
                "warning: a loop [exif.ifd-loop]",
            ])
        #expect(MetadataWarning.collapsingRepeats([note, other]) == [note, other])
    }

    @Test func warningsReadLikeCompilerNotes() {
        let result = TIFFReader.read(Self.cases.first { $0.name == "IFD0's next IFD is IFD0" }?.bytes ?? [])
        #expect(
            result.warnings.first?.description
                == "warning: IFD1 at offset 8 was already read: a loop in the IFD links; not read again [exif.ifd-loop]"
        )
    }
}
