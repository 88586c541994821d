import FilterKit
import Testing

/// The eight EXIF orientations applied to pixels, against the TIFF definitions written out pixel by pixel.
@Suite struct ImageOrientationTests {
    /// Where upright pixel (x, y) comes from in a stored w × h picture, straight from the Orientation tag's
    /// definition: which stored row is the visual top and which stored column the visual left.
    static func sourcePixel(_ o: ImageOrientation, x: Int, y: Int, w: Int, h: Int) -> (Int, Int) {
        switch o {
        case .up: (x, y)
        case .mirrored: (w - 1 - x, y)
        case .rotated180: (w - 1 - x, h - 1 - y)
        case .mirroredVertically: (x, h - 1 - y)
        case .transposed: (y, x)
        case .rotated90Clockwise: (y, h - 1 - x)
        case .transversed: (w - 1 - y, h - 1 - x)
        case .rotated270Clockwise: (w - 1 - y, x)
        }
    }

    @Test(arguments: ImageOrientation.allCases)
    func everyPixelComesFromWhereTheTagSays(_ orientation: ImageOrientation) {
        let stored = TestFrames.random(width: 7, height: 5, seed: 3, bytesPerRow: 7 * 4 + 12)
        let upright = orientation.apply(to: stored)
        #expect((upright.width, upright.height) == (orientation.swapsSides ? (5, 7) : (7, 5)))
        #expect(upright.planes[0].bytesPerRow == upright.width * 4)
        for y in 0..<upright.height {
            for x in 0..<upright.width {
                let (sx, sy) = Self.sourcePixel(orientation, x: x, y: y, w: 7, h: 5)
                #expect(upright.rgba(x: x, y: y) == stored.rgba(x: sx, y: sy), "(\(x), \(y))")
            }
        }
    }

    @Test func rotatingAQuarterTurnFourTimesGivesThePictureBack() {
        let stored = TestFrames.random(width: 130, height: 67, seed: 4)
        var frame = stored
        for _ in 0..<4 { frame = ImageOrientation.rotated90Clockwise.apply(to: frame) }
        #expect(frame == stored)
        let back = ImageOrientation.rotated270Clockwise.apply(to: ImageOrientation.rotated90Clockwise.apply(to: stored))
        #expect(back == stored)
    }

    @Test func onlyOneToEightAreOrientations() {
        #expect(ImageOrientation(exifValue: 0) == nil)
        #expect(ImageOrientation(exifValue: 9) == nil)
        #expect(ImageOrientation(exifValue: 6) == .rotated90Clockwise)
        #expect(
            ImageOrientation.up.apply(to: TestFrames.random(width: 3, height: 2, seed: 1))
                == TestFrames.random(width: 3, height: 2, seed: 1))
    }
}
