/// The simulated camera's sensor noise: zero-mean triangular noise (σ = `level` code values) per colour
/// channel, added with saturation, the same for the same seed and frame.
///
/// Rather than a random number and a rounded `Float` per sample (which would be most of the camera's cost),
/// the noise values are made once per camera into a seeded field of `fieldPixels` RGBA offsets
/// (alpha 0), and each row of each frame adds a window of that field starting at a position hashed from
/// (seed, frame, row): byte-wise saturating adds, 16 samples at a time. Rows and frames still differ (the
/// windows start at 65,536 possible places), so an encoder sees noise that changes every frame.
struct SensorNoise: Sendable {
    /// Pixels in the field; each row reads `width` consecutive pixels from a hashed start below this.
    static let fieldPixels = 1 << 16

    let seed: UInt64
    let width: Int
    /// The positive part of each offset (RGBA interleaved, alpha 0), `fieldPixels + width` pixels.
    private let raise: [UInt8]
    /// The negative part's magnitude, same layout.
    private let lower: [UInt8]

    /// Noise of standard deviation `level` (8-bit code values) for rows `width` pixels wide.
    init(seed: UInt64, level: Double, width: Int) {
        self.seed = seed
        self.width = width
        let count = (Self.fieldPixels + width) * 4
        var raise = [UInt8](repeating: 0, count: count), lower = [UInt8](repeating: 0, count: count)
        // Triangular noise from two bytes a, b: (a + b − 255) / 255 has σ ≈ 0.408; scale to `level`.
        let scale = level / 0.408 / 255
        let key = SplitMix64.mix(seed ^ 0x5E45_0A15_E000_0001)
        for pixel in 0..<(Self.fieldPixels + width) {
            let state = SplitMix64.mix(key &+ UInt64(pixel) &* 0x9E37_79B9_7F4A_7C15)
            for channel in 0..<3 {
                let a = Int((state >> UInt64(channel * 16)) & 0xFF), b = Int((state >> UInt64(channel * 16 + 8)) & 0xFF)
                let offset = min(max(Int((Double(a + b - 255) * scale).rounded()), -255), 255)
                if offset > 0 {
                    raise[pixel * 4 + channel] = UInt8(offset)
                } else {
                    lower[pixel * 4 + channel] = UInt8(-offset)
                }
            }
        }
        self.raise = raise
        self.lower = lower
    }

    /// Where row `y` of frame `index` starts reading the field, in pixels.
    func rowStart(frame index: Int, row y: Int) -> Int {
        let frameKey = SplitMix64.mix(seed ^ SplitMix64.mix(UInt64(index) &+ 0xC0FFEE))
        return Int(SplitMix64.mix(frameKey ^ UInt64(y) &* 0x9E37_79B9_7F4A_7C15) % UInt64(Self.fieldPixels))
    }

    /// The offset the field holds for `channel` (0…2) of field pixel `pixel` (the reference path's read).
    func offset(pixel: Int, channel: Int) -> Int { Int(raise[pixel * 4 + channel]) - Int(lower[pixel * 4 + channel]) }

    /// Adds frame `index`'s noise to an `.rgba` frame `width` pixels wide (alpha untouched).
    func add(to frame: inout Frame, index: Int) {
        precondition(frame.format == .rgba && frame.width == width)
        let stride = frame.planes[0].bytesPerRow, rowBytes = width * 4, height = frame.height
        raise.withUnsafeBytes { raise in
            lower.withUnsafeBytes { lower in
                frame.planes[0].bytes.withUnsafeMutableBytes { pixels in
                    for y in 0..<height {
                        let start = rowStart(frame: index, row: y) * 4
                        Self.addRow(
                            pixels.baseAddress! + y * stride, raise.baseAddress! + start, lower.baseAddress! + start,
                            count: rowBytes)
                    }
                }
            }
        }
    }

    /// `pixels[i] = clamp(pixels[i] + raise[i] − lower[i], 0, 255)` for `count` bytes.
    @inline(__always)
    private static func addRow(
        _ pixels: UnsafeMutableRawPointer, _ raise: UnsafeRawPointer, _ lower: UnsafeRawPointer, count: Int
    ) {
        var i = 0
        while i + 16 <= count {
            let p = pixels.loadUnaligned(fromByteOffset: i, as: SIMD16<UInt8>.self)
            let up = raise.loadUnaligned(fromByteOffset: i, as: SIMD16<UInt8>.self)
            let down = lower.loadUnaligned(fromByteOffset: i, as: SIMD16<UInt8>.self)
            // Saturating: a + min(b, 255 − a), then a − min(a, b).
            let raised = p &+ pointwiseMin(up, ~p)
            pixels.storeBytes(of: raised &- pointwiseMin(raised, down), toByteOffset: i, as: SIMD16<UInt8>.self)
            i += 16
        }
        while i < count {
            let p = pixels.load(fromByteOffset: i, as: UInt8.self)
            let raised = p &+ min(raise.load(fromByteOffset: i, as: UInt8.self), ~p)
            pixels.storeBytes(
                of: raised &- min(raised, lower.load(fromByteOffset: i, as: UInt8.self)), toByteOffset: i,
                as: UInt8.self)
            i += 1
        }
    }
}
