import FilterKit
import FilterzTestSupport
import Foundation
import PhotoMetadata
import PhotoTestSupport
import RealClients
import Testing

@testable import Photos

/// Each format the adapter writes, read back by the adapter: sizes, pixels (exact for PNG, close for the lossy
/// codecs), alpha.
@Suite struct CodecRoundTripTests {
    /// The largest difference of any colour channel between two RGBA frames of the same size.
    static func largestDifference(_ a: Frame, _ b: Frame) -> Int {
        let pa = a.packedBytes(), pb = b.packedBytes()
        var worst = 0
        for i in pa.indices where i % 4 != 3 { worst = max(worst, abs(Int(pa[i]) - Int(pb[i]))) }
        return worst
    }

    @Test func pngKeepsEveryByteWithAndWithoutAlpha() throws {
        let opaque = TestPhotos.frame(width: 33, height: 17)
        let decoded = try PhotoReader.decode(TestPhotos.encode(opaque, as: .png))
        #expect(decoded.format == .png)
        #expect(decoded.frame == opaque)
        var translucent = opaque
        for i in stride(from: 3, to: translucent.planes[0].bytes.count, by: 4) {
            translucent.planes[0].bytes[i] = UInt8(i % 251)
        }
        let back = try PhotoReader.decode(TestPhotos.encode(translucent, as: .png))
        #expect(back.frame == translucent)
    }

    @Test func jpegComesBackCloseAtHighQuality() throws {
        let frame = TestPhotos.frame(width: 64, height: 48)
        let bytes = try TestPhotos.encode(frame, as: .jpeg, quality: 98)
        #expect(Array(bytes.prefix(3)) == [0xFF, 0xD8, 0xFF])
        let decoded = try PhotoReader.decode(bytes)
        #expect((decoded.frame.width, decoded.frame.height) == (64, 48))
        #expect(TestPhotos.meanDifference(decoded.frame, frame) < 8)  // 4:2:0 chroma on a small, sharp, noisy frame
        #expect(decoded.orientation == .up)
    }

    @Test func heicComesBackCloseThroughLibheif() throws {
        let frame = TestPhotos.frame(width: 64, height: 48)
        let bytes = try TestPhotos.encode(frame, as: .heif, quality: 90)
        #expect(PhotoFormat.detect(bytes) == .heif)
        let decoded = try PhotoReader.decode(bytes)
        #expect((decoded.frame.width, decoded.frame.height) == (64, 48))
        #expect(TestPhotos.meanDifference(decoded.frame, frame) < 6)
        #expect(decoded.frame.rgba(x: 5, y: 5).w == 255)
    }
}

/// PNG variants libpng expands to 8-bit RGBA: 16-bit samples (rounded, not truncated), grey, palette, interlaced.
@Suite struct PNGVariantTests {
    /// A PNG of raw rows (filter byte 0 before each), written chunk by chunk here.
    static func png(width: Int, height: Int, bitDepth: UInt8, colourType: UInt8, rows: [[UInt8]]) throws -> [UInt8] {
        let header =
            ByteOrder.bigEndian.bytes(UInt32(width)) + ByteOrder.bigEndian.bytes(UInt32(height)) + [
                bitDepth, colourType, 0, 0, 0,
            ]
        let data = try Zlib.compress(rows.flatMap { [0] + $0 })
        return PNGStructure.signature + PNGTestChunk.chunk("IHDR", header) + PNGTestChunk.chunk("IDAT", data)
            + PNGTestChunk.chunk("IEND", [])
    }

    @Test func sixteenBitSamplesAreRoundedToEightBits() throws {
        // RGBA at 16 bits: 0x0000, 0x7F7F (127.5 → 127 or 128?), 0x8080 → 128, 0xFFFF → 255, 0x0101 → 1, 0x017F → 1.
        let samples: [UInt16] = [0x0000, 0x8080, 0xFFFF, 0x0101, 0x017F, 0x0180, 0xFEFF, 0x1234]
        let row = samples.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
        let decoded = try PhotoReader.decode(Self.png(width: 2, height: 1, bitDepth: 16, colourType: 6, rows: [row]))
        let expected = samples.map { UInt8((Double($0) * 255 / 65535).rounded()) }
        #expect(decoded.frame.packedBytes() == expected)
    }

    @Test func greyAndGreyAlphaBecomeRGBA() throws {
        let grey = try PhotoReader.decode(
            Self.png(width: 3, height: 1, bitDepth: 8, colourType: 0, rows: [[0, 128, 255]]))
        #expect(grey.frame.packedBytes() == [0, 0, 0, 255, 128, 128, 128, 255, 255, 255, 255, 255])
        let greyAlpha = try PhotoReader.decode(
            Self.png(width: 1, height: 1, bitDepth: 8, colourType: 4, rows: [[200, 17]]))
        #expect(greyAlpha.frame.packedBytes() == [200, 200, 200, 17])
    }

    @Test(
        .enabled(
            if: ExternalTool.isInstalled("convert"), "needs ImageMagick's convert (make deps installs imagemagick)"))
    func palettedAndInterlacedFilesDecodeAsImageMagickReadsThem() throws {
        let folder = try TemporaryFolder(prefix: "filterz-png")
        let source = folder.url.appendingPathComponent("source.png").path
        try Data(TestPhotos.encode(TestPhotos.frame(width: 37, height: 23), as: .png)).write(
            to: URL(fileURLWithPath: source))
        for (name, options) in [
            ("palette.png", ["-colors", "64", "PNG8:"]), ("interlaced.png", ["-interlace", "PNG", ""]),
        ] {
            let path = folder.url.appendingPathComponent(name).path
            let output = options.last == "" ? path : options.last! + path
            #expect(try ExternalTool.run("convert", [source] + options.dropLast() + [output]).exitCode == 0)
            let raw = folder.url.appendingPathComponent(name + ".rgba").path
            #expect(try ExternalTool.run("convert", [path, "-depth", "8", "rgba:\(raw)"]).exitCode == 0)
            let decoded = try PhotoReader.decode(
                try #require(FileManager.default.contents(atPath: path).map { [UInt8]($0) }))
            let reference = try #require(FileManager.default.contents(atPath: raw).map { [UInt8]($0) })
            #expect(decoded.frame.packedBytes() == reference, "\(name)")
        }
    }
}
