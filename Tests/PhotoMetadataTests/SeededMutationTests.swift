import FilterKit
import FilterzTestSupport
import PhotoMetadata
import Testing

/// Seeded mutations of well-formed EXIF, JPEG and PNG metadata (bytes flipped, inserted, deleted, offsets and
/// counts replaced by extreme values, files cut short): every reader must return, within its limits, and what it
/// read must write and read back unchanged. The libFuzzer target (`Fuzz/PhotoMetadataFuzzer.swift`) explores
/// further; this runs in every `swift test` and is replayable from its seed.
@Suite(.slow) struct SeededMutationTests {
    static let rounds = 1500

    /// One mutation of `bytes`, chosen by `random`.
    static func mutate(_ bytes: [UInt8], _ random: inout SeededGenerator) -> [UInt8] {
        var out = bytes
        guard !out.isEmpty else { return [UInt8(truncatingIfNeeded: random.next())] }
        let at = Int(random.next() % UInt64(out.count))
        switch random.next() % 7 {
        case 0: out[at] ^= UInt8(1 << (random.next() % 8))
        case 1: out[at] = UInt8(truncatingIfNeeded: random.next())
        case 2:
            out.insert(
                contentsOf: (0..<Int(random.next() % 8 + 1)).map { _ in UInt8(truncatingIfNeeded: random.next()) },
                at: at)
        case 3: out.removeSubrange(at..<min(out.count, at + Int(random.next() % 16 + 1)))
        case 4:
            // A 16- or 32-bit field set to an extreme: 0, all ones, just past the end, or a small offset.
            let values: [UInt32] = [0, 0xFFFF_FFFF, UInt32(out.count), UInt32(out.count + 1), 8, 2, 0x7FFF_FFFF]
            let value = values[Int(random.next() % UInt64(values.count))]
            for k in 0..<4 where at + k < out.count { out[at + k] = UInt8(truncatingIfNeeded: value >> (8 * (3 - k))) }
        case 5: out = Array(out.prefix(at))
        default:
            // A run copied from elsewhere in the file (a real structure's bytes in the wrong place).
            let from = Int(random.next() % UInt64(out.count)), length = min(12, out.count - max(from, at))
            if length > 0 { out.replaceSubrange(at..<(at + length), with: out[from..<(from + length)]) }
        }
        return out
    }

    /// The read entries of each IFD (tag, type, count, bytes), pointers and thumbnail offsets left out.
    static func content(_ metadata: ExifMetadata) -> [String] {
        IFDKind.allCases.flatMap { kind in TIFFRoundTripTests.content(metadata.ifd(kind)).map { "\(kind) \($0)" } }
    }

    static var exifSeed: [UInt8] {
        var metadata = TIFFRoundTripTests.everyType(.littleEndian)
        metadata.exif?.set(
            IFDEntry(
                tag: ExifTag.makerNote, type: .undefined, count: 64,
                bytes: (0..<64).map { UInt8($0) }, sourceOffset: 700))
        return TIFFWriter.write(metadata).bytes
    }

    @Test func mutatedEXIFIsReadWithinLimitsAndWritesBackAsRead() {
        var random = SeededGenerator(seed: 0x5EED_0021)
        let seed = Self.exifSeed
        var input = seed
        for round in 0..<Self.rounds {
            input = round % 4 == 0 ? Self.mutate(seed, &random) : Self.mutate(input, &random)
            let read = TIFFReader.read(input)
            guard let metadata = read.metadata else { continue }
            #expect(metadata.ifds.count <= TIFFLimits().maximumIFDs)
            let written = TIFFWriter.write(metadata)
            let again = TIFFReader.read(written.bytes)
            guard let back = again.metadata else {
                Issue.record("round \(round): written EXIF does not read back")
                continue
            }
            // The writer leaves out an IFD1 with strip offsets (an uncompressed thumbnail it cannot carry).
            var expected = metadata
            if expected.ifd1?[0x0111] != nil { expected.ifd1 = nil }
            #expect(Self.content(back) == Self.content(expected), "round \(round)")
            #expect(again.warnings.filter { $0.severity == .warning }.isEmpty, "round \(round): \(again.warnings)")
            _ = PhotoDetails(
                format: "JPEG", storedWidth: 10, storedHeight: 10, fileSizeBytes: input.count,
                metadata: CarriedMetadata(exif: metadata))
        }
    }

    @Test func mutatedJPEGAndPNGMetadataIsReadWithoutTrapping() {
        var random = SeededGenerator(seed: 0x5EED_0022)
        let icc = ContainerMetadataTests.iccProfile(name: "Display P3") + [UInt8](repeating: 3, count: 300)
        let jpeg = ContainerMetadataTests.jpeg([
            ContainerMetadataTests.segment(0xE0, Array("JFIF\0".utf8) + [1, 1, 0, 0, 1, 0, 1, 0, 0]),
            ContainerMetadataTests.segment(0xE1, Array("Exif\0\0".utf8) + Self.exifSeed),
            ContainerMetadataTests.segment(
                0xE1, Array("http://ns.adobe.com/xap/1.0/\0<x:xmpmeta tiff:Orientation=\"6\"/>".utf8)),
            ContainerMetadataTests.iccChunk(1, of: 2, Array(icc[0..<200])),
            ContainerMetadataTests.iccChunk(2, of: 2, Array(icc[200...])),
        ])
        let png = ContainerMetadataTests.png([
            PNGTestChunk.chunk("eXIf", Self.exifSeed),
            PNGTestChunk.chunk(
                "iTXt", Array("XML:com.adobe.xmp".utf8) + [0, 0, 0, 0, 0] + Array("<x/>".utf8)),
            PNGTestChunk.chunk("iCCP", Array("P3".utf8) + [0, 0, 0x78, 0x9C]),
        ])
        for round in 0..<Self.rounds {
            let mutatedJPEG = Self.mutate(round % 3 == 0 ? jpeg : Self.mutate(jpeg, &random), &random)
            if let structure = JPEGStructure.scan(mutatedJPEG).structure {
                #expect(structure.segments.count <= JPEGStructure.maximumSegments)
                let metadata = CarriedMetadata.read(jpeg: mutatedJPEG, structure: structure)
                let upright = metadata.forUprightCopy(width: 64, height: 48)
                let written = JPEGMetadataWriter.write(upright, into: ContainerMetadataTests.jpeg([]))
                let back = JPEGStructure.scan(written.bytes).structure.map {
                    CarriedMetadata.read(jpeg: written.bytes, structure: $0)
                }
                #expect(back?.exif.map(Self.content) == upright.exif.map(Self.content), "round \(round)")
                #expect(back?.iccProfile == upright.iccProfile, "round \(round)")
                _ = PhotoDetails(
                    format: "JPEG", storedWidth: structure.frame?.width, storedHeight: structure.frame?.height,
                    fileSizeBytes: mutatedJPEG.count, metadata: metadata)
            }
            let mutatedPNG = Self.mutate(round % 3 == 0 ? png : Self.mutate(png, &random), &random)
            if let structure = PNGStructure.scan(mutatedPNG) {
                let written = PNGMetadataWriter.write(
                    structure.metadata.forUprightCopy(width: 64, height: 48),
                    compressedICCProfile: structure.compressedICCProfile, into: mutatedPNG)
                _ = PNGStructure.scan(written.bytes)
            }
        }
    }
}
