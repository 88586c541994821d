/// Four pixels' colours, one `SIMD4` per channel (a lane per pixel): the layout in which the per-pixel colour
/// steps run four pixels at a time.
struct Channels {
    var red, green, blue: SIMD4<Float>

    @inline(always)
    init(_ red: SIMD4<Float>, _ green: SIMD4<Float>, _ blue: SIMD4<Float>) {
        (self.red, self.green, self.blue) = (red, green, blue)
    }

    /// The channels of four consecutive RGBA pixels at `bytes`, as 0…255.
    @inline(always)
    init(rgba p: UnsafePointer<UInt8>) {
        red = SIMD4(Float(p[0]), Float(p[4]), Float(p[8]), Float(p[12]))
        green = SIMD4(Float(p[1]), Float(p[5]), Float(p[9]), Float(p[13]))
        blue = SIMD4(Float(p[2]), Float(p[6]), Float(p[10]), Float(p[14]))
    }

    /// Pixel `lane` as (r, g, b, 0).
    @inline(always)
    func pixel(_ lane: Int) -> SIMD4<Float> { SIMD4(red[lane], green[lane], blue[lane], 0) }

    /// The 3×3 matrix whose columns are `c0`, `c1`, `c2` (lanes 0–2) applied to every pixel.
    @inline(always)
    func mixed(_ c0: SIMD4<Float>, _ c1: SIMD4<Float>, _ c2: SIMD4<Float>) -> Channels {
        Channels(
            red * c0.x + green * c1.x + blue * c2.x, red * c0.y + green * c1.y + blue * c2.y,
            red * c0.z + green * c1.z + blue * c2.z)
    }

    /// Rec. 709 luma of each pixel.
    @inline(always)
    var luma: SIMD4<Float> { red * 0.2126 + green * 0.7152 + blue * 0.0722 }

    @inline(always)
    static func + (c: Channels, v: SIMD4<Float>) -> Channels { Channels(c.red + v, c.green + v, c.blue + v) }

    @inline(always)
    static func + (c: Channels, v: Float) -> Channels { Channels(c.red + v, c.green + v, c.blue + v) }

    @inline(always)
    static func * (c: Channels, v: Float) -> Channels { Channels(c.red * v, c.green * v, c.blue * v) }
}
