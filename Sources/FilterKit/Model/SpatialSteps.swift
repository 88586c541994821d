import Foundation

/// The parameters of the four spatial steps, shared by both render paths. Every step clamps at the edges
/// (a sample outside the frame takes the value of the nearest edge pixel).
///
/// - Noise reduction: the guided filter of He, Sun & Tang (2013) with each channel as its own guide, a
///   (2r+1)² box with r = `noiseRadius`: `m = box(I)`, `v = box(I²) − m²`, `a = v / (v + ε)`, `b = m − a·m`,
///   `out = box(a)·I + box(b)`. ε = (0.1 · value)², so flat, noisy areas (v ≪ ε) are averaged and edges
///   (v ≫ ε) kept; the strength follows the value.
/// - Sharpen: unsharp mask on luma: `Y` the Rec. 709 luma, `Ŷ` Y blurred with σ = 1 px, every channel
///   `c += amount · (Y − Ŷ)` with amount = sharpness.
/// - Gaussian blur of σ = blur px on every channel: three passes per axis of the extended box filter of
///   Gwosdek, Grewenig, Bruhn & Weickert (2011), whose variance equals σ²/3 exactly, so the three passes
///   have variance σ² (the central limit theorem makes the shape near-Gaussian). A pass of radius r and end
///   weight α sums `I[x−r…x+r] + α·(I[x−r−1] + I[x+r+1])` and divides by `2r + 1 + 2α`.
/// - Vignette: `c *= 1 − 0.45 · value · ρ⁴`, ρ the distance from the frame centre divided by half the
///   diagonal (so the falloff is circular in pixels whatever the aspect ratio and the corners are at ρ = 1):
///   the centre is untouched, corners darken by up to 90 % at value 2.
enum SpatialSteps {
    static let noiseRadius = 2
    static let sharpenSigma = 1.0
    static let blurPasses = 3
    static let vignetteScale = 0.45

    static func noiseEpsilon(_ value: Double) -> Double { (0.1 * value) * (0.1 * value) }

    /// One extended box pass: integer radius and end weight α in [0, 1).
    struct ExtendedBox: Sendable, Equatable {
        var radius: Int
        var endWeight: Double
        var normaliser: Double { Double(2 * radius + 1) + 2 * endWeight }

        /// The pass whose variance is `variance` (Gwosdek et al. 2011, eqs. for r and α).
        init(variance s2: Double) {
            var r = Int(((12 * s2 + 1).squareRoot() - 1) / 2)
            while Double(r * (r + 1)) / 3 > s2 { r -= 1 }
            while Double((r + 1) * (r + 2)) / 3 <= s2 { r += 1 }
            let w = Double(2 * r + 1)
            radius = r
            endWeight = w * (s2 - Double(r * (r + 1)) / 3) / (2 * (Double((r + 1) * (r + 1)) - s2))
        }

        init(radius: Int, endWeight: Double) {
            self.radius = radius
            self.endWeight = endWeight
        }

        /// The pass for a Gaussian of `sigma` split into `passes` equal passes.
        init(sigma: Double, passes: Int = SpatialSteps.blurPasses) {
            self.init(variance: sigma * sigma / Double(passes))
        }
    }

    /// The vignette gain at pixel (x, y) of a width × height frame (pixel centres at +0.5).
    static func vignetteGain(x: Int, y: Int, width: Int, height: Int, value: Double) -> Double {
        let halfDiagonalSquared = (Double(width) * Double(width) + Double(height) * Double(height)) / 4
        let dx = Double(x) + 0.5 - Double(width) / 2, dy = Double(y) + 0.5 - Double(height) / 2
        let rho2 = (dx * dx + dy * dy) / halfDiagonalSquared
        return 1 - vignetteScale * value * rho2 * rho2
    }
}
