import Testing
@testable import Media
internal import CFFmpeg

@Suite struct AreaDownscalerTests {
    /// A plane of random bytes from a seed (rows `stride` bytes apart, padding included).
    static func noisyPlane(width: Int, height: Int, stride: Int, seed: UInt64) -> [UInt8] {
        var state = seed
        return (0..<(stride * height)).map { _ in
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return UInt8(truncatingIfNeeded: state >> 56)
        }
    }

    static func scaled(_ scaler: AreaDownscaler, _ plane: [UInt8], stride: Int) -> [UInt8] {
        var output = [UInt8](repeating: 0, count: scaler.destinationWidth * scaler.destinationHeight)
        var sums = [UInt16](repeating: 0, count: scaler.sourceWidth)
        plane.withUnsafeBufferPointer { source in
            output.withUnsafeMutableBufferPointer { destination in
                sums.withUnsafeMutableBufferPointer { sums in
                    scaler.scale(
                        source.baseAddress!, sourceStride: stride, into: destination.baseAddress!,
                        destinationStride: scaler.destinationWidth, rowSums: sums.baseAddress!)
                }
            }
        }
        return output
    }

    /// The row-by-row passes (with their 2:1 and 4:3 loops) equal the sample-by-sample reference byte for
    /// byte: the default ladder's sizes and their chroma, 4:3 widths whose groups are not a multiple of 4,
    /// ratios just above 1, large ratios, padded rows, one-sample planes.
    @Test(arguments: [
        (1280, 720, 960, 540), (640, 360, 480, 270), (1280, 720, 640, 360), (640, 360, 320, 180), (40, 8, 30, 6),
        (56, 4, 42, 3), (65, 37, 64, 36), (37, 65, 36, 64), (100, 50, 33, 17), (9, 9, 1, 1), (1, 1, 1, 1),
        (30, 20, 30, 20),
    ])
    func rowPassesEqualTheReference(sourceWidth: Int, sourceHeight: Int, width: Int, height: Int) throws {
        let scaler = try #require(AreaDownscaler(from: sourceWidth, sourceHeight, to: width, height))
        for stride in [sourceWidth, sourceWidth + 24] {
            let plane = Self.noisyPlane(width: sourceWidth, height: sourceHeight, stride: stride, seed: UInt64(sourceWidth * 131 + width))
            #expect(Self.scaled(scaler, plane, stride: stride) == scaler.reference(plane, sourceStride: stride))
        }
    }

    /// Each output is the overlap-weighted mean of the source area it covers, computed here in `Double`
    /// straight from the geometry (within one code value: the weights are rounded to 1/256).
    @Test(arguments: [(64, 48, 48, 36), (64, 48, 32, 24), (65, 37, 64, 36), (100, 50, 33, 17), (21, 13, 8, 5)])
    func outputsAreAreaMeans(sourceWidth: Int, sourceHeight: Int, width: Int, height: Int) throws {
        let scaler = try #require(AreaDownscaler(from: sourceWidth, sourceHeight, to: width, height))
        let plane = Self.noisyPlane(width: sourceWidth, height: sourceHeight, stride: sourceWidth, seed: 7)
        let output = Self.scaled(scaler, plane, stride: sourceWidth)
        func overlaps(_ index: Int, source: Int, destination: Int) -> [(Int, Double)] {
            let start = Double(index) * Double(source) / Double(destination)
            let end = Double(index + 1) * Double(source) / Double(destination)
            return (Int(start)..<min(source, Int(end.rounded(.up)))).map { sample in
                (sample, max(0, min(end, Double(sample + 1)) - max(start, Double(sample))) / (end - start))
            }
        }
        var worst = 0.0
        for y in 0..<height {
            for x in 0..<width {
                var mean = 0.0
                for (row, wy) in overlaps(y, source: sourceHeight, destination: height) {
                    for (column, wx) in overlaps(x, source: sourceWidth, destination: width) {
                        mean += wx * wy * Double(plane[row * sourceWidth + column])
                    }
                }
                worst = max(worst, abs(Double(output[y * width + x]) - mean))
            }
        }
        #expect(worst <= 1.0, "off by \(worst)")
    }

    /// 2:1 is the rounded mean of each 2 × 2 block; 4:3 weighs neighbours ¾ ¼, ½ ½, ¼ ¾.
    @Test func defaultLadderRatiosHaveTheirExactWeights() throws {
        let half = try #require(AreaDownscaler(from: 4, 2, to: 2, 1))
        #expect(Self.scaled(half, [10, 20, 200, 0, 31, 40, 100, 101], stride: 4) == [25, 100])
        let threeQuarters = try #require(AreaDownscaler(from: 4, 4, to: 3, 3))
        #expect(threeQuarters.horizontal.weights == [192, 64, 128, 128, 64, 192])
        #expect(Self.scaled(threeQuarters, Array(repeating: [0, 64, 128, 255], count: 4).flatMap { $0 }, stride: 4) == Array(repeating: [16, 96, 223], count: 3).flatMap { $0 })
        #expect(AreaDownscaler(from: 4, 4, to: 5, 4) == nil, "never upscales")
    }

    /// A rendition frame made from the shared YUV picture: a plane copy at the source size, each plane
    /// downscaled otherwise (chroma at half the rendition's size, odd sizes rounded up).
    @Test(arguments: [(64, 36, 64, 36), (64, 36, 48, 27), (66, 38, 32, 18)])
    func renditionFramesComeFromEveryPlane(sourceWidth: Int, sourceHeight: Int, width: Int, height: Int) throws {
        let chroma = ((sourceWidth + 1) / 2, (sourceHeight + 1) / 2)
        let planes = [(sourceWidth, sourceHeight), chroma, chroma].enumerated().map { index, size in
            Picture.Plane(bytes: Self.noisyPlane(width: size.0, height: size.1, stride: size.0, seed: UInt64(index)), bytesPerRow: size.0)
        }
        let picture = Picture(layout: .yuv420p, width: sourceWidth, height: sourceHeight, planes: planes)
        let downscaler = try #require(YUV420Downscaler(from: sourceWidth, sourceHeight, to: width, height))
        let frame = try MediaFrame()
        try frame.allocatePicture(width: width, height: height, pixelFormat: AV_PIX_FMT_YUV420P)
        downscaler.scale(picture, into: frame)
        let outputChroma = ((width + 1) / 2, (height + 1) / 2)
        for (index, size) in [(width, height), outputChroma, outputChroma].enumerated() {
            var got = [UInt8](repeating: 0, count: size.0 * size.1)
            got.withUnsafeMutableBufferPointer {
                frame.copyFromPlane(index, into: $0, destinationStride: size.0, bytesPerRow: size.0, rows: size.1)
            }
            let source = (index == 0 ? (sourceWidth, sourceHeight) : chroma)
            let expected = try #require(AreaDownscaler(from: source.0, source.1, to: size.0, size.1))
                .reference(planes[index].bytes, sourceStride: source.0)
            #expect(got == expected, "plane \(index)")
            if width == sourceWidth { #expect(got == planes[index].bytes, "a copy at the source size") }
        }
    }
}
