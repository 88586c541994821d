/// The reference path: every step in `Double`, one pixel at a time, each window summed directly.
/// Slow on purpose — it reads like the formulas in `ColourTransform` and `SpatialSteps`.
enum ReferenceRenderer {
    /// An RGB image of `Double`s in 0…1 (alpha kept aside).
    struct Image {
        var width: Int, height: Int
        var pixels: [SIMD3<Double>]
        subscript(x: Int, y: Int) -> SIMD3<Double> {
            get { pixels[y * width + x] }
            set { pixels[y * width + x] = newValue }
        }
        /// The pixel with coordinates clamped to the frame (clamped edges).
        func clamped(_ x: Int, _ y: Int) -> SIMD3<Double> {
            self[min(max(x, 0), width - 1), min(max(y, 0), height - 1)]
        }
        func map(_ f: (SIMD3<Double>) -> SIMD3<Double>) -> Image {
            Image(width: width, height: height, pixels: pixels.map(f))
        }
    }

    static func render(
        _ source: Frame.Plane, into output: inout Frame.Plane, width: Int, height: Int, values: FilterValues,
        transform: ColourTransform
    ) {
        var image = Image(width: width, height: height, pixels: [])
        image.pixels.reserveCapacity(width * height)
        for y in 0..<height {
            for x in 0..<width {
                let o = y * source.bytesPerRow + x * 4
                let rgb = SIMD3(Double(source.bytes[o]), Double(source.bytes[o + 1]), Double(source.bytes[o + 2])) / 255
                image.pixels.append(rgb)
            }
        }
        if !transform.isIdentity { image = image.map(transform.apply) }
        if values.noiseReduction > 0 {
            image = guidedFilter(image, epsilon: SpatialSteps.noiseEpsilon(values.noiseReduction))
        }
        if values.sharpness > 0 { image = sharpen(image, amount: values.sharpness) }
        if values.blur > 0 { image = gaussian(image, sigma: values.blur) }
        if values.vignette > 0 {
            for y in 0..<height {
                for x in 0..<width {
                    image[x, y] *= SpatialSteps.vignetteGain(
                        x: x, y: y, width: width, height: height, value: values.vignette)
                }
            }
        }
        for y in 0..<height {
            for x in 0..<width {
                let o = y * output.bytesPerRow + x * 4
                let c = (image[x, y].clamped(lowerBound: .zero, upperBound: .one) * 255).rounded(
                    .toNearestOrAwayFromZero)
                output.bytes[o] = UInt8(c.x)
                output.bytes[o + 1] = UInt8(c.y)
                output.bytes[o + 2] = UInt8(c.z)
                output.bytes[o + 3] = source.bytes[y * source.bytesPerRow + x * 4 + 3]
            }
        }
    }

    /// The mean over the (2r+1)² window around each pixel, edges clamped.
    static func boxMean(_ image: Image, radius r: Int) -> Image {
        var out = image
        let count = Double((2 * r + 1) * (2 * r + 1))
        for y in 0..<image.height {
            for x in 0..<image.width {
                var sum = SIMD3<Double>.zero
                for dy in -r...r {
                    for dx in -r...r { sum += image.clamped(x + dx, y + dy) }
                }
                out[x, y] = sum / count
            }
        }
        return out
    }

    /// The self-guided filter of He et al., per channel (see `SpatialSteps`).
    static func guidedFilter(_ image: Image, epsilon: Double) -> Image {
        let r = SpatialSteps.noiseRadius
        let mean = boxMean(image, radius: r)
        let meanOfSquares = boxMean(image.map { $0 * $0 }, radius: r)
        var a = image, b = image
        for i in image.pixels.indices {
            let m = mean.pixels[i]
            let variance = meanOfSquares.pixels[i] - m * m
            a.pixels[i] = variance / (variance + epsilon)
            b.pixels[i] = m - a.pixels[i] * m
        }
        let meanA = boxMean(a, radius: r), meanB = boxMean(b, radius: r)
        var out = image
        for i in image.pixels.indices { out.pixels[i] = meanA.pixels[i] * image.pixels[i] + meanB.pixels[i] }
        return out
    }

    /// Unsharp mask on luma (see `SpatialSteps`).
    static func sharpen(_ image: Image, amount: Double) -> Image {
        let luma = image.map { SIMD3(repeating: ColourScience.luma($0)) }
        let blurred = gaussian(luma, sigma: SpatialSteps.sharpenSigma)
        var out = image
        for i in image.pixels.indices { out.pixels[i] += amount * (luma.pixels[i].x - blurred.pixels[i].x) }
        return out
    }

    /// Three extended box passes along x, then three along y (see `SpatialSteps`).
    static func gaussian(_ image: Image, sigma: Double) -> Image {
        let box = SpatialSteps.ExtendedBox(sigma: sigma)
        var out = image
        for _ in 0..<SpatialSteps.blurPasses { out = extendedBox(out, box, horizontal: true) }
        for _ in 0..<SpatialSteps.blurPasses { out = extendedBox(out, box, horizontal: false) }
        return out
    }

    static func extendedBox(_ image: Image, _ box: SpatialSteps.ExtendedBox, horizontal: Bool) -> Image {
        var out = image
        let r = box.radius
        for y in 0..<image.height {
            for x in 0..<image.width {
                func sample(_ d: Int) -> SIMD3<Double> {
                    horizontal ? image.clamped(x + d, y) : image.clamped(x, y + d)
                }
                var sum = SIMD3<Double>.zero
                for d in -r...r { sum += sample(d) }
                sum += box.endWeight * (sample(-r - 1) + sample(r + 1))
                out[x, y] = sum / box.normaliser
            }
        }
        return out
    }
}
