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
        return SIMD4(
            Float(signOf: v.x, magnitudeOf: root.x), Float(signOf: v.y, magnitudeOf: root.y),
            Float(signOf: v.z, magnitudeOf: root.z), Float(signOf: v.w, magnitudeOf: root.w))
    }
}
