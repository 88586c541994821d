internal import CFFmpeg

/// An owned `SwrContext` (libswresample): turns decoded audio of any sample rate, channel layout and
/// sample format into interleaved `Float` samples at one output rate and channel count (mono or a
/// proper stereo downmix), ready for the AAC encoder. Rebuilds itself if the input format changes
/// mid-stream. Confined to one task (not `Sendable`).
final class AudioResampler {
    /// What comes out.
    let sampleRate: Int
    let channels: Int
    private var context: OpaquePointer?
    /// The input format the context was built for: (rate, sample format, channel layout description).
    private var inputKey: (rate: Int32, format: Int32, layout: String)?

    init(sampleRate: Int, channels: Int) {
        self.sampleRate = sampleRate
        self.channels = channels
    }

    deinit { swr_free(&context) }

    /// The output format for a source of `sampleRate` Hz and `channels` channels: AAC-LC as players expect
    /// it — mono stays mono, anything wider becomes stereo; a rate AAC has a sampling-frequency index for
    /// (8 … 48 kHz) is kept, any other (96 kHz, 37.8 kHz, …) becomes 48 kHz.
    static func outputFormat(sampleRate: Int, channels: Int) -> (sampleRate: Int, channels: Int) {
        let kept: Set<Int> = [8_000, 11_025, 12_000, 16_000, 22_050, 24_000, 32_000, 44_100, 48_000]
        return (kept.contains(sampleRate) ? sampleRate : 48_000, channels <= 1 ? 1 : 2)
    }

    /// Converts one decoded frame; may return fewer (or more) samples than it was given, as the
    /// resampler keeps a few in its filter.
    func convert(_ frame: MediaFrame) throws(FFmpegError) -> [Float] {
        let input = frame.pointer
        try prepare(for: input)
        let count = input.pointee.nb_samples
        return try run(count) { context, output, capacity in
            let planes = UnsafeMutableRawPointer(input.pointee.extended_data)?
                .assumingMemoryBound(to: UnsafePointer<UInt8>?.self)
            return swr_convert(context, output, capacity, planes, count)
        }
    }

    /// The samples still held in the resampler's filter, at the end of the stream.
    func flush() throws(FFmpegError) -> [Float] {
        guard context != nil else { return [] }
        return try run(0) { context, output, capacity in swr_convert(context, output, capacity, nil, 0) }
    }

    private func run(
        _ inputCount: Int32,
        _ convert: (OpaquePointer, UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>, Int32) -> Int32
    ) throws(FFmpegError) -> [Float] {
        guard let context else { return [] }
        let capacity = max(0, swr_get_out_samples(context, inputCount)) + 32
        var samples = [Float](repeating: 0, count: Int(capacity) * channels)
        let produced = samples.withUnsafeMutableBytes { raw -> Int32 in
            var plane = raw.baseAddress?.assumingMemoryBound(to: UInt8.self)
            return withUnsafeMutablePointer(to: &plane) { convert(context, $0, capacity) }
        }
        try check(produced, "swr_convert")
        samples.removeLast(samples.count - Int(produced) * channels)
        return samples
    }

    /// Builds (or rebuilds) the context for the frame's format.
    private func prepare(for frame: UnsafeMutablePointer<AVFrame>) throws(FFmpegError) {
        var layout = frame.pointee.ch_layout  // a shallow copy, never freed here
        if layout.nb_channels <= 0 { throw FFmpegError(code: fz_AVERROR(EINVAL), function: "swr_alloc_set_opts2") }
        if layout.order == AV_CHANNEL_ORDER_UNSPEC {
            // Decoders of some formats only say how many channels there are: assume the usual layout.
            av_channel_layout_default(&layout, layout.nb_channels)
        }
        let key = (rate: frame.pointee.sample_rate, format: frame.pointee.format, layout: Self.describe(&layout))
        if let inputKey, inputKey.rate == key.rate, inputKey.format == key.format, inputKey.layout == key.layout {
            return
        }
        swr_free(&context)
        var output = AVChannelLayout()
        av_channel_layout_default(&output, Int32(channels))
        defer { av_channel_layout_uninit(&output) }
        try check(
            swr_alloc_set_opts2(
                &context, &output, AV_SAMPLE_FMT_FLT, Int32(sampleRate),
                &layout, AVSampleFormat(rawValue: key.format), key.rate, 0, nil),
            "swr_alloc_set_opts2")
        try check(swr_init(context), "swr_init")
        inputKey = key
    }

    private static func describe(_ layout: inout AVChannelLayout) -> String {
        var buffer = [CChar](repeating: 0, count: 128)
        _ = av_channel_layout_describe(&layout, &buffer, buffer.count)
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
