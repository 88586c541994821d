/// The last colour steps per pixel in `Float`: the sRGB encode of step 5 (when the transform passes through
/// linear light), the highlights/shadows tone curve (step 6), the black point (step 7) and the clamp to 0…1.
/// The second half of `ColourPipeline`.
///
/// The encode is a table indexed by √|L| (sign kept): in L itself the curve is too steep just above black
/// (h^(1/2.4)) to tabulate evenly, in √|L| it is gentle. The tone curve is a table over luma 0…1.
struct ColourFinish: Sendable {
    let encode: ColourTable?
    let tone: ColourTable?
    let blackPoint: Float
    static let lumaWeights = SIMD4<Float>(0.2126, 0.7152, 0.0722, 0)

    /// - Parameter linearBound: the largest |L| to encode, or nil when the transform has no linear-light
    ///   steps (the input of `apply` is then already gamma-encoded).
    init(_ transform: ColourTransform, linearBound: Double?, storage: inout [PinnedBuffer<Float>]) {
        if let linearBound {
            let root = linearBound.squareRoot() + 1e-6
            encode = ColourTable(lower: -root, upper: root, count: 16384, storage: &storage) { u in
                ColourScience.encode(u < 0 ? -u * u : u * u)
            }
        } else {
            encode = nil
        }
        let values = transform.values
        if values.shadows != 0 || values.highlights != 0 {
            tone = ColourTable(lower: 0, upper: 1, count: 4096, storage: &storage) { transform.toneShift(luma: $0) }
        } else {
            tone = nil
        }
        blackPoint = Float(values.blackPoint)
    }

    /// Encodes (if needed) four pixels, applies the tone curve and black point, and clamps to 0…1.
    @inline(always)
    func apply(_ linearOrEncoded: Channels) -> Channels {
        var c = linearOrEncoded
        if let encode {
            c = Channels(encode(signedRoot(c.red)), encode(signedRoot(c.green)), encode(signedRoot(c.blue)))
        }
        if let tone { c = c + tone(clamp01(c.luma)) }
        if blackPoint > 0 { c = c * (1 - blackPoint) + blackPoint }
        return Channels(clamp01(c.red), clamp01(c.green), clamp01(c.blue))
    }

    /// √|v| with v's sign, lane by lane.
    @inline(always)
    private func signedRoot(_ v: SIMD4<Float>) -> SIMD4<Float> {
        let root = SIMD4(abs(v.x), abs(v.y), abs(v.z), abs(v.w)).squareRoot()
        return SIMD4(Float(signOf: v.x, magnitudeOf: root.x), Float(signOf: v.y, magnitudeOf: root.y),
                     Float(signOf: v.z, magnitudeOf: root.z), Float(signOf: v.w, magnitudeOf: root.w))
    }
}

/// A sampled 1D function on [lower, upper] read back by linear interpolation (inputs outside are clamped to
/// the ends). Plain values only (the samples are owned by the caller's `storage`), so the inner loop does no
/// reference counting.
struct ColourTable: @unchecked Sendable {
    let lower: Float, scale: Float, last: Float
    let samples: UnsafeMutablePointer<Float>

    init(lower: Double, upper: Double, count: Int, storage: inout [PinnedBuffer<Float>], _ f: (Double) -> Double) {
        let upper = upper > lower ? upper : lower + 1
        self.lower = Float(lower)
        scale = Float(Double(count - 1) / (upper - lower))
        last = Float(count - 1)
        let buffer = PinnedBuffer<Float>(count: count + 1, repeating: 0)
        storage.append(buffer)
        samples = buffer.pointer
        for i in 0..<count { samples[i] = Float(f(lower + (upper - lower) * Double(i) / Double(count - 1))) }
        samples[count] = samples[count - 1]
    }

    /// Every lane looked up.
    @inline(always)
    func callAsFunction(_ x: SIMD4<Float>) -> SIMD4<Float> {
        let p = (x - lower) * scale
        let position = SIMD4(clamp(p.x, 0, last), clamp(p.y, 0, last), clamp(p.z, 0, last),
                             clamp(p.w, 0, last))
        let i0 = Int(position.x), i1 = Int(position.y), i2 = Int(position.z), i3 = Int(position.w)
        let t = position - SIMD4(Float(i0), Float(i1), Float(i2), Float(i3))
        let low = SIMD4(samples[i0], samples[i1], samples[i2], samples[i3])
        let high = SIMD4(samples[i0 + 1], samples[i1 + 1], samples[i2 + 1], samples[i3 + 1])
        return low + (high - low) * t
    }
}
