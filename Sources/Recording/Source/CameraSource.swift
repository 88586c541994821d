import FilterKit
import Foundation
import Packaging
import Parallel

/// The simulated camera and microphone as a recording's source: the camera's captures in order (dropped frames
/// already left out), each with the microphone's samples from its capture time to the next frame's.
public final class CameraSource: RecordingSource {
    public let camera: SimulatedCamera
    public let microphone: SimulatedMicrophone
    public let format: SourceFormat
    private var index = 0

    public init(camera: SimulatedCamera, microphone: SimulatedMicrophone) {
        self.camera = camera
        self.microphone = microphone
        format = SourceFormat(
            width: camera.width, height: camera.height,
            frameDuration: Timestamp(camera.frameDuration.value, timescale: camera.frameDuration.timescale),
            timescale: SimulatedCamera.timescale,
            audio: LadderSegmenter.AudioFormat(
                sampleRate: microphone.configuration.sampleRate, channels: microphone.configuration.channelCount),
            expectedFrames: camera.captures.count)
    }

    public func next() throws -> SourceFrame? {
        guard index < camera.captures.count else { return nil }
        defer { index += 1 }
        return SourceFrame(
            frame: camera.frame(for: camera.captures[index]).image, time: time(index), audio: audio(index))
    }

    /// Frames are drawn and filtered side by side, one per core, each on a single thread (drawn by the camera on
    /// that thread first), rather than one at a time split across the cores: no hand-overs between row bands
    /// (single-threaded filtering costs less CPU per frame), and while one frame waits for the encoders the next
    /// is already being made.
    public func filtered(by values: FilterValues) -> () throws -> SourceFrame? {
        let camera = camera
        let workers = max(1, ProcessInfo.processInfo.activeProcessorCount)
        let renderer = FilterRenderer(values: values, threads: .callingThread)
        // Per worker: its queue (2) and the encoders' input queue (≤ 4 frames in all) hold its frames.
        let rings = (0..<workers).map { _ in FrameRing(count: 6, width: camera.width, height: camera.height) }
        let filtered = Prefetcher<Frame>(workers: workers, depth: 2, name: "camera-filter") { index -> Frame? in
            guard index < camera.captures.count else { return nil }
            return rings[index % workers].render(camera.frame(for: camera.captures[index]).image, with: renderer)
        }
        return { [self] in
            guard let frame = filtered.next() else { return nil }
            defer { index += 1 }
            return SourceFrame(frame: frame, time: time(index), audio: audio(index))
        }
    }

    private func time(_ index: Int) -> Timestamp { camera.captures[index].timestamp }

    /// The samples from capture `index`'s time to one frame later.
    private func audio(_ index: Int) -> [Float] {
        let start = camera.captures[index].timestamp.seconds
        let rate = Double(microphone.configuration.sampleRate)
        let first = Int64((start * rate).rounded())
        let last = Int64(((start + camera.frameDuration.seconds) * rate).rounded())
        return microphone.chunk(startingAt: first, frameCount: Int(last - first)).samples
    }
}
