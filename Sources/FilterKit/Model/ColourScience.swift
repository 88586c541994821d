import Foundation

/// The colour formulas the renderer uses, each with its source. Pure `Double` functions.
enum ColourScience {
    /// Rec. 709 (= sRGB) luma weights, ITU-R BT.709-6 item 3.2: Y' = 0.2126 R' + 0.7152 G' + 0.0722 B'.
    static let lumaWeights = SIMD3<Double>(0.2126, 0.7152, 0.0722)

    static func luma(_ rgb: SIMD3<Double>) -> Double { (rgb * lumaWeights).sum() }

    /// sRGB electro-optical transfer (IEC 61966-2-1): gamma-encoded → linear light.
    /// `v / 12.92` for v ≤ 0.04045, else `((v + 0.055) / 1.055)^2.4`; extended to negative values by odd
    /// symmetry (as extended-range sRGB does) so out-of-range intermediate values stay continuous.
    static func decode(_ v: Double) -> Double {
        let a = abs(v)
        let linear = a <= 0.04045 ? a / 12.92 : pow((a + 0.055) / 1.055, 2.4)
        return v < 0 ? -linear : linear
    }

    /// The inverse of `decode` (IEC 61966-2-1): `12.92 L` for L ≤ 0.0031308, else `1.055 L^(1/2.4) − 0.055`.
    static func encode(_ l: Double) -> Double {
        let a = abs(l)
        let v = a <= 0.0031308 ? a * 12.92 : 1.055 * pow(a, 1 / 2.4) - 0.055
        return l < 0 ? -v : v
    }

    /// CIE 1931 xy chromaticity of a Planckian (black-body) radiator at `kelvin`, by the cubic
    /// approximation of Kim et al. (2002, US patent 7,024,034; also Krystek 1985 in spirit), valid 1667…25000 K.
    static func planckianChromaticity(kelvin: Double) -> SIMD2<Double> {
        let t = kelvin, t2 = t * t, t3 = t2 * t
        let x: Double
        if t <= 4000 {
            x = -0.2661239e9 / t3 - 0.2343589e6 / t2 + 0.8776956e3 / t + 0.179910
        } else {
            x = -3.0258469e9 / t3 + 2.1070379e6 / t2 + 0.2226347e3 / t + 0.240390
        }
        let x2 = x * x, x3 = x2 * x
        let y: Double
        if t <= 2222 {
            y = -1.1063814 * x3 - 1.34811020 * x2 + 2.18555832 * x - 0.20219683
        } else if t <= 4000 {
            y = -0.9549476 * x3 - 1.37418593 * x2 + 2.09137015 * x - 0.16748867
        } else {
            y = 3.0817580 * x3 - 5.87338670 * x2 + 3.75112997 * x - 0.37001483
        }
        return SIMD2(x, y)
    }

    /// linear sRGB → CIE XYZ (D65), IEC 61966-2-1.
    static let rgbToXYZ = Matrix3(
        0.4124, 0.3576, 0.1805,
        0.2126, 0.7152, 0.0722,
        0.0193, 0.1192, 0.9505)

    /// The Bradford cone-response matrix (Lam 1985; as used by ICC v4 for chromatic adaptation).
    static let bradford = Matrix3(
        0.8951, 0.2664, -0.1614,
        -0.7502, 1.7135, 0.0367,
        0.0389, -0.0685, 1.0296)

    /// The linear-sRGB matrix that adapts white from the Planckian white at 6500 K to the one at `kelvin`
    /// (Bradford: M = B⁻¹ · diag(ρβγ_dst / ρβγ_src) · B, in XYZ, wrapped by sRGB ↔ XYZ). A low `kelvin`
    /// turns white orange (warmer), a high one blue (cooler). Identity at 6500.
    static func whiteBalanceMatrix(kelvin: Double) -> Matrix3 {
        func whiteXYZ(_ xy: SIMD2<Double>) -> SIMD3<Double> { SIMD3(xy.x / xy.y, 1, (1 - xy.x - xy.y) / xy.y) }
        let source = bradford * whiteXYZ(planckianChromaticity(kelvin: 6500))
        let target = bradford * whiteXYZ(planckianChromaticity(kelvin: kelvin))
        let adapt = bradford.inverse * Matrix3(diagonal: target / source) * bradford
        return rgbToXYZ.inverse * adapt * rgbToXYZ
    }
}
