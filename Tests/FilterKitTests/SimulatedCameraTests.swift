import FilterKit
import MediaTime
import Testing

@Suite struct SimulatedCameraTests {
    static let configuration = SimulatedCamera.Configuration(
        width: 96, height: 54, framesPerSecond: 30, durationSeconds: 2, seed: 7, timestampJitter: 0.2,
        dropProbability: 0.1)

    @Test func theSameSeedGivesTheSameFramesAndTimestamps() {
        let a = SimulatedCamera(Self.configuration), b = SimulatedCamera(Self.configuration)
        #expect(a.captures == b.captures)
        for capture in a.captures.prefix(5) {
            #expect(a.frame(for: capture) == b.frame(for: capture))
        }
    }

    @Test func differentSeedsGiveDifferentFrames() {
        var other = Self.configuration
        other.seed = 8
        let a = SimulatedCamera(Self.configuration), b = SimulatedCamera(other)
        #expect(a.frame(atSeconds: 0).image != b.frame(atSeconds: 0).image)
        #expect(a.captures != b.captures)
    }

    @Test func framesChangeOverTime() {
        let camera = SimulatedCamera(Self.configuration)
        #expect(camera.frame(atSeconds: 0).image != camera.frame(atSeconds: 1).image)
    }

    @Test func timestampsIncreaseStrictlyAndDropsLeaveGaps() {
        let camera = SimulatedCamera(Self.configuration)
        let captures = camera.captures
        #expect(captures.first?.timestamp == Timestamp(0, timescale: 90_000))
        for (a, b) in zip(captures, captures.dropFirst()) {
            #expect(a.timestamp < b.timestamp)
            #expect(a.index < b.index)
        }
        #expect(captures.count < 60 && captures.count > 40, "about 10 % of 60 frames dropped, got \(captures.count)")
        #expect(captures.contains { $0.timestamp.value != Int64($0.index) * 3000 }, "jitter moves timestamps")
    }

    @Test func withoutJitterTimestampsAreExactMultiplesOfTheFrameDuration() {
        let camera = SimulatedCamera(.init(width: 32, height: 18, framesPerSecond: 25, durationSeconds: 1))
        #expect(camera.captures.count == 25)
        #expect(camera.captures.map(\.timestamp.value) == (0..<25).map { Int64($0) * 3600 })
        #expect(camera.frameDuration == Timestamp(3600, timescale: 90_000))
    }

    @Test func portraitFramesAreTallerThanWide() {
        let camera = SimulatedCamera(.init(width: 1280, height: 720, durationSeconds: 1, orientation: .portrait))
        #expect(camera.width == 720 && camera.height == 1280)
        let frame = SimulatedCamera(.init(width: 64, height: 36, durationSeconds: 1, orientation: .portrait)).frame(
            atSeconds: 0)
        #expect(frame.image.width == 36 && frame.image.height == 64)
    }

    @Test func yuvOutputHasHalfSizeChroma() {
        let frame = SimulatedCamera(.init(width: 65, height: 37, durationSeconds: 1)).frame(
            atSeconds: 0, format: .yuv420p)
        #expect(frame.image.format == .yuv420p)
        #expect(frame.image.planes.map(\.width) == [65, 33, 33])
        #expect(frame.image.planes.map(\.height) == [37, 19, 19])
    }

    @Test(arguments: [(96, 54, SimulatedCamera.Orientation.landscape), (65, 37, .portrait), (7, 5, .landscape)])
    func theFastDrawingGivesTheReferenceBytes(width: Int, height: Int, orientation: SimulatedCamera.Orientation) {
        var configuration = Self.configuration
        (configuration.width, configuration.height, configuration.orientation) = (width, height, orientation)
        let camera = SimulatedCamera(configuration)
        for capture in camera.captures.prefix(4) + camera.captures.suffix(2) {
            let fast = camera.frame(for: capture), reference = camera.frame(for: capture, path: .reference)
            #expect(fast == reference, "frame \(capture.index) of \(width)x\(height)")
        }
    }

    @Test func sensorNoiseIsZeroMeanWithTheConfiguredSpreadAndChangesEveryFrame() {
        var quiet = Self.configuration, noisy = Self.configuration
        (quiet.width, quiet.height, quiet.noiseLevel) = (320, 180, 0)
        (noisy.width, noisy.height, noisy.noiseLevel) = (320, 180, 3)
        let clean = SimulatedCamera(quiet).frame(atSeconds: 0).image
        let camera = SimulatedCamera(noisy)
        let first = camera.frame(atSeconds: 0).image, second = camera.frame(for: camera.captures[1]).image
        // Mid-grey sky and ground rows below the counter, where no clipping happens.
        var differences: [Double] = []
        for y in 40..<180 {
            for x in 0..<320 {
                let a = clean.rgba(x: x, y: y), b = first.rgba(x: x, y: y)
                #expect(b.w == 255)
                for channel in 0..<3 where (8...247).contains(a[channel]) {
                    differences.append(Double(b[channel]) - Double(a[channel]))
                }
            }
        }
        let mean = differences.reduce(0, +) / Double(differences.count)
        let sigma = (differences.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / Double(differences.count))
            .squareRoot()
        #expect(abs(mean) < 0.1)
        #expect(abs(sigma - 3) < 0.3, "σ = \(sigma)")
        #expect(differences.allSatisfy { abs($0) <= 8 })
        #expect(
            first.planes[0].bytes[(100 * 320 + 10) * 4..<(101 * 320) * 4]
                != second.planes[0].bytes[(100 * 320 + 10) * 4..<(101 * 320) * 4])
    }

    @Test func theSceneShowsTheColourChart() {
        // Without noise the chart's white patch (243, 243, 242) appears exactly.
        let image = SimulatedCamera(.init(width: 640, height: 360, durationSeconds: 1, noiseLevel: 0)).frame(
            atSeconds: 0
        ).image
        var found = false
        for y in stride(from: 0, to: 360, by: 2) where !found {
            for x in stride(from: 0, to: 640, by: 2) where image.rgba(x: x, y: y) == SIMD4(243, 243, 242, 255) {
                found = true
                break
            }
        }
        #expect(found)
    }
}

@Suite struct SimulatedMicrophoneTests {
    @Test func theSameSeedGivesTheSameSamples() {
        let a = SimulatedMicrophone(.init(seed: 3)), b = SimulatedMicrophone(.init(seed: 3))
        #expect(a.chunk(startingAt: 4800, frameCount: 256) == b.chunk(startingAt: 4800, frameCount: 256))
        #expect(
            a.chunk(startingAt: 0, frameCount: 256)
                != SimulatedMicrophone(.init(seed: 4)).chunk(startingAt: 0, frameCount: 256))
    }

    @Test func chunksAreContiguousWithSampleTimestamps() {
        let mic = SimulatedMicrophone(.init(sampleRate: 48_000, channelCount: 2))
        let chunks = mic.chunks(durationSeconds: 0.1, framesPerChunk: 1024)
        #expect(chunks.map(\.frameCount).reduce(0, +) == 4800)
        #expect(chunks[1].timestamp == Timestamp(1024, timescale: 48_000))
        #expect(chunks.allSatisfy { $0.samples.count == $0.frameCount * 2 })
        // Chunking does not change the signal.
        #expect(chunks[1].samples == mic.chunk(startingAt: 1024, frameCount: 1024).samples)
    }

    @Test func theSignalIsAnAudibleToneWithinRange() {
        let chunk = SimulatedMicrophone(.init(channelCount: 1)).chunk(startingAt: 0, frameCount: 48_000)
        let peak = chunk.samples.map { abs($0) }.max() ?? 0
        #expect(peak > 0.2 && peak <= 0.27)
        let rms = (chunk.samples.map { $0 * $0 }.reduce(0, +) / Float(chunk.samples.count)).squareRoot()
        #expect(rms > 0.15)
        #expect(chunk.int16Samples.count == 48_000)
    }
}
