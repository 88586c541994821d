import FilterKit
import FilterzTestSupport
import PhotoMetadata
import PhotoTestSupport
import Testing

@testable import Photos

/// Decompression bombs: a small file whose header claims a huge picture is refused by its header, before a pixel
/// buffer is allocated or a pixel decoded; the limits (ImageMagick's default policy: 128 MP) let camera photos
/// through and can be raised.
@Suite struct PhotoLimitsTests {
    /// 14,000 × 14,000: 196 MP, the attack run's 479-byte JPEG.
    static let bomb = (width: 14_000, height: 14_000)

    @Test(arguments: PhotoFormat.allCases)
    func aSmallFileClaimingHugeDimensionsIsRefusedBeforeDecoding(_ format: PhotoFormat) throws {
        let bytes = try ClaimedSize.photo(format, claimingWidth: Self.bomb.width, height: Self.bomb.height)
        #expect(bytes.count < 4_000)
        var admitted: (Int, Int)?
        do {
            // Not `#expect(throws:)`: a decoded bomb would be printed whole in its failure message.
            let decoded = try PhotoReader.decode(bytes) { width, height throws(PhotoError) in admitted = (width, height)
            }
            Issue.record("decoded to \(decoded.frame.width)×\(decoded.frame.height) pixels")
        } catch {
            #expect(error == .tooManyPixels(width: 14_000, height: 14_000, limit: 128_000_000))
        }
        #expect(admitted == nil, "the admission (a batch's memory reservation) comes after the limits")
    }

    @Test func theErrorNamesTheClaimedSizeAndTheLimit() {
        let error = PhotoError.tooManyPixels(width: 14_000, height: 14_000, limit: 128_000_000)
        #expect(
            error.description
                == "its header claims 14000×14000 pixels (196 MP), more than the limit of 128 MP; not decoded")
        let memory = PhotoError.tooMuchMemory(width: 14_000, height: 14_000, limit: 1_000_000_000)
        #expect(
            memory.description
                == "its header claims 14000×14000 pixels (196 MP), which take 1.6 GB to decode and filter, more than the memory limit of 1.0 GB; not decoded"
        )
    }

    @Test func cameraPhotosUpTo128MegapixelsAreWithinTheDefaults() throws {
        let limits = PhotoLimits()
        for (width, height) in [(8000, 6000), (8064, 6048), (6048, 8064), (16_000, 8000), (65_535, 1953)] {
            try limits.check(width: width, height: height)
        }
        #expect(throws: PhotoError.tooManyPixels(width: 16_000, height: 8001, limit: 128_000_000)) {
            try limits.check(width: 16_000, height: 8001)
        }
        #expect(throws: PhotoError.unsupportedSize(width: 65_536, height: 1)) {
            try limits.check(width: 65_536, height: 1)
        }
        #expect(throws: PhotoError.unsupportedSize(width: 0, height: 10)) { try limits.check(width: 0, height: 10) }
    }

    @Test func theMemoryLimitRefusesAPhotoThatNeedsMoreThanItAlone() {
        let limits = PhotoLimits(maximumPixels: 400_000_000, maximumMemoryBytes: 1_000_000_000)
        #expect(PhotoLimits.memoryBytes(width: 14_000, height: 14_000) == 1_568_000_000)
        #expect(throws: PhotoError.tooMuchMemory(width: 14_000, height: 14_000, limit: 1_000_000_000)) {
            try limits.check(width: 14_000, height: 14_000)
        }
        #expect(throws: Never.self) { try limits.check(width: 10_000, height: 12_500) }
    }

    /// The same real photo is refused under a lower limit and decoded under a raised one.
    @Test(arguments: PhotoFormat.allCases)
    func raisingTheLimitLetsAPhotoThrough(_ format: PhotoFormat) throws {
        let bytes = try TestPhotos.encode(TestPhotos.frame(width: 640, height: 480), as: format, quality: 60)
        #expect(throws: PhotoError.tooManyPixels(width: 640, height: 480, limit: 300_000)) {
            try PhotoReader.decode(bytes, limits: PhotoLimits(maximumPixels: 300_000))
        }
        #expect(throws: PhotoError.tooMuchMemory(width: 640, height: 480, limit: 2_000_000)) {
            try PhotoReader.decode(bytes, limits: PhotoLimits(maximumMemoryBytes: 2_000_000))
        }
        var admitted: (Int, Int)?
        let decoded = try PhotoReader.decode(bytes, limits: PhotoLimits(maximumPixels: 400_000)) {
            width, height throws(PhotoError) in admitted = (width, height)
        }
        #expect((decoded.frame.width, decoded.frame.height) == (640, 480))
        #expect(admitted.map { [$0.0, $0.1] } == [640, 480])
    }

    /// A bomb claiming a size within a raised limit is admitted (and then decoded as far as its data goes, which
    /// is the decoder's business): the admission sees the claimed size before any pixel is decoded.
    @Test(arguments: [PhotoFormat.jpeg, .png])
    func aRaisedLimitAdmitsTheClaimedSizeBeforeDecoding(_ format: PhotoFormat) throws {
        let bytes = try ClaimedSize.photo(format, claimingWidth: 1200, height: 1000)
        var admitted: (Int, Int)?
        #expect(throws: PhotoError.tooManyPixels(width: 1200, height: 1000, limit: 1_000_000)) {
            try PhotoReader.decode(bytes, limits: PhotoLimits(maximumPixels: 1_000_000))
        }
        _ = try? PhotoReader.decode(bytes, limits: PhotoLimits(maximumPixels: 1_200_000)) {
            width, height throws(PhotoError) in admitted = (width, height)
        }
        #expect(admitted.map { [$0.0, $0.1] } == [1200, 1000])
    }
}
