import FilterKit
import FilterzTestSupport
import Foundation
import RealClients

/// Seeded inputs for the renderer tests.
enum TestFrames {
    /// An RGBA frame of uniformly random bytes (alpha random too, to check it is carried through).
    static func random(width: Int, height: Int, seed: UInt64, bytesPerRow: Int? = nil) -> Frame {
        var generator = SeededGenerator(seed: seed)
        var frame = Frame(rgbaWidth: width, height: height, bytesPerRow: bytesPerRow)
        for y in 0..<height {
            for x in 0..<(width * 4) {
                frame.planes[0].bytes[y * frame.planes[0].bytesPerRow + x] = UInt8.random(
                    in: 0...255, using: &generator)
            }
        }
        return frame
    }

    /// A camera frame.
    static func camera(
        width: Int = 64, height: Int = 36, seed: UInt64 = 3, seconds: Double = 1.5,
        noiseLevel: Double = 2
    ) -> Frame {
        SimulatedCamera(.init(width: width, height: height, durationSeconds: 4, seed: seed, noiseLevel: noiseLevel))
            .frame(atSeconds: seconds).image
    }

    /// A uniform frame of one colour.
    static func flat(_ colour: SIMD3<UInt8>, width: Int = 16, height: Int = 16) -> Frame {
        var frame = Frame(rgbaWidth: width, height: height)
        for i in stride(from: 0, to: frame.planes[0].bytes.count, by: 4) {
            frame.planes[0].bytes[i] = colour.x
            frame.planes[0].bytes[i + 1] = colour.y
            frame.planes[0].bytes[i + 2] = colour.z
        }
        return frame
    }

    /// Random values: each key set with probability 0.6 to a uniform value in its range, else its default.
    static func randomValues(seed: UInt64) -> FilterValues {
        var generator = SeededGenerator(seed: seed &+ 0x5EED)
        var values = FilterValues()
        for key in FilterValues.Key.allCases where generator.nextUnit() < 0.6 {
            values[key] = key.range.lowerBound + generator.nextUnit() * (key.range.upperBound - key.range.lowerBound)
        }
        return values
    }

    /// Every sample preset file, parsed.
    static let samplePresets: [Preset] = {
        let folder = SharedData.sampleMedia.appendingPathComponent("presets")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { $0.hasSuffix(".json") }.sorted().compactMap { name in
            guard let data = FileManager.default.contents(atPath: folder.appendingPathComponent(name).path) else {
                return nil
            }
            return try? Preset.parse(Array(data))
        }
    }()
}

/// How far apart two RGBA frames' colour channels are.
struct Agreement: CustomStringConvertible {
    var samples = 0
    var withinOne = 0
    var maximum = 0
    var alphaDiffers = false

    init(_ a: Frame, _ b: Frame) {
        let pa = a.packedBytes(), pb = b.packedBytes()
        for i in pa.indices {
            if i % 4 == 3 {
                if pa[i] != pb[i] { alphaDiffers = true }
                continue
            }
            let d = abs(Int(pa[i]) - Int(pb[i]))
            samples += 1
            if d <= 1 { withinOne += 1 }
            maximum = max(maximum, d)
        }
    }

    var fractionWithinOne: Double { Double(withinOne) / Double(max(samples, 1)) }
    var isAcceptable: Bool { fractionWithinOne >= 0.999 && maximum <= 2 && !alphaDiffers }
    var description: String { "within ±1: \(fractionWithinOne * 100)%, max \(maximum), alpha differs: \(alphaDiffers)" }
}
