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
        let position = SIMD4(
            clamp(p.x, 0, last), clamp(p.y, 0, last), clamp(p.z, 0, last),
            clamp(p.w, 0, last))
        let i0 = Int(position.x), i1 = Int(position.y), i2 = Int(position.z), i3 = Int(position.w)
        let t = position - SIMD4(Float(i0), Float(i1), Float(i2), Float(i3))
        let low = SIMD4(samples[i0], samples[i1], samples[i2], samples[i3])
        let high = SIMD4(samples[i0 + 1], samples[i1 + 1], samples[i2 + 1], samples[i3 + 1])
        return low + (high - low) * t
    }
}
