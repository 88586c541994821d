/// One pixel's colour steps, as the inner loop calls them.
protocol ColourKernel {
    func callAsFunction(_ r: UInt8, _ g: UInt8, _ b: UInt8) -> SIMD4<Float>
    /// Four consecutive RGBA pixels at `p` (the default: one at a time).
    func four(_ p: UnsafePointer<UInt8>) -> (SIMD4<Float>, SIMD4<Float>, SIMD4<Float>, SIMD4<Float>)
}

extension ColourKernel {
    @inline(always)
    func four(_ p: UnsafePointer<UInt8>) -> (SIMD4<Float>, SIMD4<Float>, SIMD4<Float>, SIMD4<Float>) {
        (self(p[0], p[1], p[2]), self(p[4], p[5], p[6]), self(p[8], p[9], p[10]), self(p[12], p[13], p[14]))
    }
}

extension LUTView: ColourKernel {
    @inline(always) func callAsFunction(_ r: UInt8, _ g: UInt8, _ b: UInt8) -> SIMD4<Float> { lookup(r, g, b) }
}

extension ColourPipeline: ColourKernel {
    @inline(always) func callAsFunction(_ r: UInt8, _ g: UInt8, _ b: UInt8) -> SIMD4<Float> { apply(r, g, b) }

    /// Four pixels at once, planar (`Channels`), then back to one `SIMD4` per pixel.
    @inline(always)
    func four(_ p: UnsafePointer<UInt8>) -> (SIMD4<Float>, SIMD4<Float>, SIMD4<Float>, SIMD4<Float>) {
        let c = apply(Channels(rgba: p))
        return (c.pixel(0), c.pixel(1), c.pixel(2), c.pixel(3))
    }
}

/// No colour steps: bytes to 0…1.
struct ByteScale: ColourKernel {
    @inline(always) func callAsFunction(_ r: UInt8, _ g: UInt8, _ b: UInt8) -> SIMD4<Float> {
        SIMD4(Float(r), Float(g), Float(b), 0) * (1 / 255)
    }
}
