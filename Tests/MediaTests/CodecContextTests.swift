internal import CFFmpeg
import FilterKit
import FilterzTestSupport
import Testing

@testable import Media

@Suite struct CodecContextTests {
    /// A grey-ramp 4:2:0 picture whose luma shifts with `index`, so consecutive frames differ.
    static func syntheticFrame(width: Int, height: Int, index: Int) throws -> MediaFrame {
        let frame = try MediaFrame()
        try frame.allocatePicture(width: width, height: height, pixelFormat: AV_PIX_FMT_YUV420P)
        let luma = (0..<(width * height)).map { UInt8(truncatingIfNeeded: ($0 % width) + index * 3) }
        let chroma = [UInt8](repeating: 128, count: (width / 2) * (height / 2))
        luma.withUnsafeBufferPointer {
            frame.copyIntoPlane(0, from: $0, sourceStride: width, bytesPerRow: width, rows: height)
        }
        chroma.withUnsafeBufferPointer {
            frame.copyIntoPlane(1, from: $0, sourceStride: width / 2, bytesPerRow: width / 2, rows: height / 2)
            frame.copyIntoPlane(2, from: $0, sourceStride: width / 2, bytesPerRow: width / 2, rows: height / 2)
        }
        frame.presentationTime = Int64(index)
        return frame
    }

    @Test func libx264EncodesEveryFrameAndStartsWithAKeyframe() throws {
        LibavLogging.setQuiet(true)
        let encoder = try CodecContext(encoderNamed: "libx264")
        encoder.pointer.pointee.width = 64
        encoder.pointer.pointee.height = 48
        encoder.pointer.pointee.pix_fmt = AV_PIX_FMT_YUV420P
        encoder.pointer.pointee.time_base = AVRational(num: 1, den: 30)
        try encoder.open(options: ["preset": "ultrafast"])
        let packet = try MediaPacket()
        var packets: [(pts: Int64?, key: Bool)] = []
        func drain() throws {
            while try encoder.receivePacket(into: packet) == .produced {
                packets.append((packet.presentationTime, packet.isKeyframe))
                packet.unreference()
            }
        }
        for index in 0..<10 {
            try encoder.send(frame: try Self.syntheticFrame(width: 64, height: 48, index: index))
            try drain()
        }
        try encoder.send(frame: nil)
        try drain()
        #expect(try encoder.receivePacket(into: packet) == .endOfStream)
        #expect(packets.count == 10)
        #expect(packets.compactMap(\.pts).sorted() == Array(0..<10))
        #expect(packets.first?.key == true)
    }

    @Test func unknownEncoderIsATypedErrorNotACrash() {
        #expect(throws: FFmpegError.self) { try CodecContext(encoderNamed: "no-such-encoder") }
    }

    @Test func errorTextComesFromLibav() {
        let error = FFmpegError(code: fz_AVERROR(EINVAL), function: "avcodec_open2")
        #expect(error.description == "avcodec_open2 failed: Invalid argument (code -22)")
    }

    @Test func scalerHalvesAPicture() throws {
        let source = try Self.syntheticFrame(width: 64, height: 48, index: 0)
        let destination = try MediaFrame()
        try destination.allocatePicture(width: 32, height: 24, pixelFormat: AV_PIX_FMT_YUV420P)
        let scaler = try Scaler(from: 64, 48, AV_PIX_FMT_YUV420P, to: 32, 24, AV_PIX_FMT_YUV420P)
        try scaler.scale(source, into: destination)
        #expect(destination.width == 32 && destination.height == 24)
        #expect(destination.presentationTime == 0)
        var row = [UInt8](repeating: 0, count: 32)
        row.withUnsafeMutableBufferPointer {
            destination.copyFromPlane(0, into: $0, destinationStride: 32, bytesPerRow: 32, rows: 1)
        }
        // The ramp 0…63 halves to roughly 0…62 in steps of 2: increasing left to right.
        #expect(row.first! < row.last!)
    }

    /// Pure red, green and blue RGBA converted for the encoder come out with BT.709 limited-range values (what
    /// the stream's colour description says), not libswscale's default BT.601 ones (red would be Y 81).
    @Test(arguments: [
        (SIMD3<UInt8>(255, 0, 0), SIMD3<Int>(63, 102, 240)), (SIMD3(0, 255, 0), SIMD3(173, 42, 26)),
        (SIMD3(0, 0, 255), SIMD3(32, 240, 118)),
    ])
    func rgbaToYUVConversionUsesBT709(rgb: SIMD3<UInt8>, expected: SIMD3<Int>) throws {
        let pixel: [UInt8] = [rgb.x, rgb.y, rgb.z, 255]
        let picture = rgbaFrame(width: 16, height: 16, bytes: Array((0..<256).map { _ in pixel }.joined()))
        let destination = try MediaFrame()
        try destination.allocatePicture(width: 16, height: 16, pixelFormat: AV_PIX_FMT_YUV420P)
        try Scaler(from: 16, 16, AV_PIX_FMT_RGBA, to: 16, 16, AV_PIX_FMT_YUV420P).scale(picture, into: destination)
        var samples: [Int] = []
        for plane in 0..<3 {
            var byte = [UInt8](repeating: 0, count: 1)
            byte.withUnsafeMutableBufferPointer {
                destination.copyFromPlane(plane, into: $0, destinationStride: 1, bytesPerRow: 1, rows: 1)
            }
            samples.append(Int(byte[0]))
        }
        #expect(zip(samples, [expected.x, expected.y, expected.z]).allSatisfy { abs($0 - $1) <= 1 }, "got \(samples)")
    }
}

@Suite struct YUV420ConversionTests {
    /// A smooth RGBA picture: gradients in every channel.
    static func gradient(width: Int, height: Int) -> Frame {
        var bytes: [UInt8] = []
        for y in 0..<height {
            for x in 0..<width {
                bytes += [
                    UInt8(x * 255 / (width - 1)), UInt8(y * 255 / (height - 1)),
                    UInt8((x + y) * 255 / (width + height - 2)), 255,
                ]
            }
        }
        return rgbaFrame(width: width, height: height, bytes: bytes)
    }

    /// The fixed-point conversion agrees with libswscale set to BT.709 (the reference) within one code value
    /// on smooth pictures, luma and chroma. Even sizes only: at odd sizes libswscale spreads its chroma
    /// samples over the whole width (65 → 33 columns), a different siting, not a different matrix.
    @Test(arguments: [(64, 36), (96, 54)])
    func agreesWithLibswscale(width: Int, height: Int) throws {
        let picture = Self.gradient(width: width, height: height)
        let ours = YUV420Conversion.yuv420(from: picture)
        let reference = try MediaFrame()
        try reference.allocatePicture(width: width, height: height, pixelFormat: AV_PIX_FMT_YUV420P)
        try Scaler(from: width, height, AV_PIX_FMT_RGBA, to: width, height, AV_PIX_FMT_YUV420P).scale(
            picture, into: reference)
        let chroma = ((width + 1) / 2, (height + 1) / 2)
        for (plane, size) in [(width, height), chroma, chroma].enumerated() {
            var expected = [UInt8](repeating: 0, count: size.0 * size.1)
            expected.withUnsafeMutableBufferPointer {
                reference.copyFromPlane(plane, into: $0, destinationStride: size.0, bytesPerRow: size.0, rows: size.1)
            }
            // libswscale's chroma filter reaches one sample further at the picture's right and bottom edges.
            var worst = 0
            for y in 0..<(size.1 - 1) {
                for x in 0..<(size.0 - 1) {
                    worst = max(
                        worst, abs(Int(ours.planes[plane].bytes[y * size.0 + x]) - Int(expected[y * size.0 + x])))
                }
            }
            #expect(worst <= 1, "plane \(plane) of \(width)x\(height): off by \(worst)")
        }
    }

    /// The fixed-point conversion against the BT.709 formulas computed in `Float` (`floatYUV420` below, with the
    /// same chroma siting): within one code value on every sample, at odd and portrait sizes and on noisy
    /// pictures, edges included.
    @Test(arguments: [(65, 37), (37, 65), (64, 36), (1, 1)])
    func agreesWithTheFormulasInFloat(width: Int, height: Int) {
        var generator = SeededGenerator(seed: UInt64(width * 1000 + height))
        let bytes: [UInt8] = (0..<(width * height)).flatMap { _ in generator.bytes(3) + [255] }
        let frame = rgbaFrame(width: width, height: height, bytes: bytes)
        let ours = YUV420Conversion.yuv420(from: frame), reference = floatYUV420(frame)
        for plane in 0..<3 {
            #expect(ours.planes[plane].bytes.count == reference.planes[plane].bytes.count)
            let worst =
                zip(ours.planes[plane].bytes, reference.planes[plane].bytes).map { abs(Int($0) - Int($1)) }.max() ?? 0
            #expect(worst <= 1, "plane \(plane) of \(width)x\(height): off by \(worst)")
        }
    }

    /// A noisy RGBA picture (random bytes, alpha included) from a seed.
    static func noisy(width: Int, height: Int, seed: UInt64, bytesPerRow: Int? = nil) -> Frame {
        var generator = SeededGenerator(seed: seed)
        let stride = bytesPerRow ?? width * 4
        let bytes = generator.bytes(stride * height)
        return rgbaFrame(width: width, height: height, bytes: bytes, bytesPerRow: stride)
    }

    /// The 16-pixel `SIMD16<Int32>` path equals the block-by-block reference byte for byte: widths below,
    /// at and just past multiples of 16 (the tail goes block by block), odd sizes, padded rows, 720p.
    @Test(arguments: [(1, 1), (15, 3), (16, 2), (17, 5), (33, 9), (48, 1), (65, 37), (37, 65), (1280, 720)])
    func vectorPathEqualsTheReference(width: Int, height: Int) {
        for bytesPerRow in [width * 4, width * 4 + 12] {
            let picture = Self.noisy(
                width: width, height: height, seed: UInt64(width * 7919 + height), bytesPerRow: bytesPerRow)
            let fast = YUV420Conversion.yuv420(from: picture),
                reference = YUV420Conversion.referenceYUV420(from: picture)
            #expect(fast.planes.map(\.bytesPerRow) == reference.planes.map(\.bytesPerRow))
            for plane in 0..<3 {
                #expect(
                    fast.planes[plane].bytes == reference.planes[plane].bytes,
                    "plane \(plane) of \(width)x\(height), stride \(bytesPerRow)")
            }
        }
    }

    /// Converting into a picture of the ring reuses its buffers, and never changes a copy a rendition still
    /// holds (copy-on-write): the held copy keeps the earlier frame's bytes.
    @Test func convertingIntoARingSlotLeavesHeldCopiesAlone() {
        let first = Self.noisy(width: 34, height: 18, seed: 1), second = Self.noisy(width: 34, height: 18, seed: 2)
        var slot = Frame(yuv420Width: 0, height: 0)
        YUV420Conversion.convert(first, into: &slot)
        let held = slot
        YUV420Conversion.convert(second, into: &slot)
        #expect(held.planes.map(\.bytes) == YUV420Conversion.referenceYUV420(from: first).planes.map(\.bytes))
        #expect(slot.planes.map(\.bytes) == YUV420Conversion.referenceYUV420(from: second).planes.map(\.bytes))
        let address = slot.planes[0].bytes.withUnsafeBufferPointer { $0.baseAddress }
        YUV420Conversion.convert(first, into: &slot)
        #expect(
            slot.planes[0].bytes.withUnsafeBufferPointer { $0.baseAddress } == address,
            "a released slot is written in place")
        #expect(slot.planes.map(\.bytes) == YUV420Conversion.referenceYUV420(from: first).planes.map(\.bytes))
    }

    @Test func primariesGetTheirBT709Values() {
        for (rgb, yuv) in [
            ((255, 0, 0), (63, 102, 240)), ((0, 255, 0), (173, 42, 26)), ((0, 0, 255), (32, 240, 118)),
            ((255, 255, 255), (235, 128, 128)), ((0, 0, 0), (16, 128, 128)),
        ] {
            let pixel: [UInt8] = [UInt8(rgb.0), UInt8(rgb.1), UInt8(rgb.2), 255]
            let picture = rgbaFrame(width: 3, height: 3, bytes: Array(Array(repeating: pixel, count: 9).joined()))
            let converted = YUV420Conversion.yuv420(from: picture)
            #expect(converted.planes.map(\.bytes.count) == [9, 4, 4])
            #expect(Set(converted.planes[0].bytes) == [UInt8(yuv.0)], "\(rgb)")
            #expect(
                Set(converted.planes[1].bytes) == [UInt8(yuv.1)] && Set(converted.planes[2].bytes) == [UInt8(yuv.2)],
                "\(rgb)")
        }
    }
}

/// An `.rgba` frame of `bytes` (rows of `bytesPerRow`, tightly packed unless said).
private func rgbaFrame(width: Int, height: Int, bytes: [UInt8], bytesPerRow: Int? = nil) -> Frame {
    let stride = bytesPerRow ?? width * 4
    return Frame(
        format: .rgba, width: width, height: height,
        planes: [.init(width: width, height: height, bytesPerRow: stride, bytes: bytes)])
}

/// BT.709 limited range in `Float`, straight from the formulas (ITU-R BT.709-6: Y' = 16 + 219·(Kr R + Kg G +
/// Kb B), Cb = 128 + 224·(B − Y)/1.8556, Cr = 128 + 224·(R − Y)/1.5748), each chroma sample from the mean RGB
/// of its 2 × 2 block, the last column and row repeated on odd sizes.
private func floatYUV420(_ frame: Frame) -> Frame {
    let width = frame.width, height = frame.height, source = frame.planes[0]
    let kr: Float = 0.2126, kg: Float = 0.7152, kb: Float = 0.0722
    func byte(_ value: Float) -> UInt8 { UInt8(min(max(value + 0.5, 0), 255)) }
    func rgb(_ x: Int, _ y: Int) -> SIMD3<Float> {
        let offset = min(y, height - 1) * source.bytesPerRow + min(x, width - 1) * 4
        return SIMD3(Float(source.bytes[offset]), Float(source.bytes[offset + 1]), Float(source.bytes[offset + 2]))
            / 255
    }
    var out = Frame(yuv420Width: width, height: height)
    for y in 0..<height {
        for x in 0..<width {
            let c = rgb(x, y)
            out.planes[0].bytes[y * width + x] = byte(16 + 219 * (kr * c.x + kg * c.y + kb * c.z))
        }
    }
    let chromaWidth = (width + 1) / 2
    for cy in 0..<(height + 1) / 2 {
        for cx in 0..<chromaWidth {
            let mean =
                (rgb(2 * cx, 2 * cy) + rgb(2 * cx + 1, 2 * cy) + rgb(2 * cx, 2 * cy + 1) + rgb(2 * cx + 1, 2 * cy + 1))
                / 4
            let luma = kr * mean.x + kg * mean.y + kb * mean.z
            out.planes[1].bytes[cy * chromaWidth + cx] = byte(128 + 224 * (mean.z - luma) / 1.8556)
            out.planes[2].bytes[cy * chromaWidth + cx] = byte(128 + 224 * (mean.x - luma) / 1.5748)
        }
    }
    return out
}
