import FilterKit
import FilterzTestSupport
import Foundation
import PhotoMetadata
import PhotoTestSupport
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

    /// The mean absolute difference of the colour channels.
    static func meanDifference(_ a: Frame, _ b: Frame) -> Double {
        let pa = a.packedBytes(), pb = b.packedBytes()
        var sum = 0, count = 0
        for i in pa.indices where i % 4 != 3 {
            sum += abs(Int(pa[i]) - Int(pb[i]))
            count += 1
        }
        return Double(sum) / Double(max(1, count))
    }

    @Test func pngKeepsEveryByteWithAndWithoutAlpha() throws {
        let opaque = TestPhotos.frame(width: 33, height: 17)
        let decoded = try PhotoReader.decode(TestPhotos.encode(opaque, as: .png))
        #expect(decoded.format == .png)
        #expect(decoded.frame == opaque)
        var translucent = opaque
        for i in stride(from: 3, to: translucent.planes[0].bytes.count, by: 4) { translucent.planes[0].bytes[i] = UInt8(i % 251) }
        let back = try PhotoReader.decode(TestPhotos.encode(translucent, as: .png))
        #expect(back.frame == translucent)
    }

    @Test func jpegComesBackCloseAtHighQuality() throws {
        let frame = TestPhotos.frame(width: 64, height: 48)
        let bytes = try TestPhotos.encode(frame, as: .jpeg, quality: 98)
        #expect(Array(bytes.prefix(3)) == [0xFF, 0xD8, 0xFF])
        let decoded = try PhotoReader.decode(bytes)
        #expect((decoded.frame.width, decoded.frame.height) == (64, 48))
        #expect(Self.meanDifference(decoded.frame, frame) < 8)  // 4:2:0 chroma on a small, sharp, noisy frame
        #expect(decoded.orientation == .up)
    }

    @Test func heicComesBackCloseThroughLibheif() throws {
        let frame = TestPhotos.frame(width: 64, height: 48)
        let bytes = try TestPhotos.encode(frame, as: .heif, quality: 90)
        #expect(PhotoFormat.detect(bytes) == .heif)
        let decoded = try PhotoReader.decode(bytes)
        #expect((decoded.frame.width, decoded.frame.height) == (64, 48))
        #expect(Self.meanDifference(decoded.frame, frame) < 6)
        #expect(decoded.frame.rgba(x: 5, y: 5).w == 255)
    }
}
