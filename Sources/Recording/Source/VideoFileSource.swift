import FilterKit
import Foundation
import Media
import Packaging

/// A decoded video file as a recording's source: upright RGBA frames, each with the audio decoded since the
/// frame before. Decoding runs ahead on a thread of its own (up to `depth` items), so it overlaps filtering and
/// encoding instead of taking turns with them; the reader belongs to that thread from here on.
public final class VideoFileSource: RecordingSource {
    public let format: SourceFormat
    private let items: Prefetcher<Result<VideoFileReader.Item, MediaInputError>>
    private var audioBacklog: [Float] = []

    /// Starts decoding `reader` on a thread of its own.
    public init(_ reader: VideoFileReader, depth: Int = 8) {
        let decoding = DecodingState(reader)
        items = Prefetcher(workers: 1, depth: depth, name: "decode") { _ in decoding.next() }
        let info = reader.info
        format = SourceFormat(
            width: info.width, height: info.height, frameDuration: info.frameDuration, timescale: info.timescale,
            audio: info.audio.map { LadderSegmenter.AudioFormat(sampleRate: $0.sampleRate, channels: $0.channels) },
            expectedFrames: info.durationSeconds.map { Int(($0 / info.frameDuration.seconds).rounded()) })
    }

    /// Throws the reader's `MediaInputError` (naming the file) when decoding fails.
    public func next() throws -> SourceFrame? {
        while true {
            switch try items.next()?.get() {
            case nil:
                return nil
            case .audio(let samples)?:
                audioBacklog += samples
            case .video(let frame, let time)?:
                defer { audioBacklog = [] }
                return SourceFrame(frame: frame, time: time, audio: audioBacklog)
            }
        }
    }
}

/// The reader as the decoding thread uses it: `next()` until the end or the first error.
private final class DecodingState: @unchecked Sendable {
    private let reader: VideoFileReader
    private var failed = false

    init(_ reader: VideoFileReader) { self.reader = reader }

    func next() -> Result<VideoFileReader.Item, MediaInputError>? {
        guard !failed else { return nil }
        do {
            return try reader.next().map { .success($0) }
        } catch {
            failed = true
            return .failure(error)
        }
    }
}
