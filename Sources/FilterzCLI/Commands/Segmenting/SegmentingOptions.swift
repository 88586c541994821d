import CLIKit
import FilterKit
import Media
import Packaging

/// The options `record` and `package` share: where the ladder goes and how it is cut.
struct SegmentingOptions {
    var preset: Preset
    var outputFolder: String
    var ladder: Ladder
    var segmentDuration: Double
    var container: ContainerFormat
    var mode: PlaylistBuilder.Mode
    var x264Preset: String
    /// `--encrypt`: nil for clear segments.
    var encryption: EncryptionOptions?

    static let specs: [OptionSpec] = [
        .value("--preset", placeholder: "name|file.json", help: "The filter preset: a name from SampleMedia/presets or a JSON file."),
        .value("--out", "-o", placeholder: "folder", help: "Output folder, replaced whole once the ladder is complete (--live: written in place)."),
        .value("--ladder", placeholder: "WxH@RATE,…", help: "Renditions, e.g. 1920x1080@6000k,1280x720@3000k; never above the source size.",
               defaultValue: "1280x720@3000k,960x540@2000k,640x360@730k"),
        .value("--segment-duration", placeholder: "seconds", help: "Target segment duration (whole frames).", defaultValue: "6"),
        .value("--format", placeholder: "ts|fmp4", help: "Segment container: MPEG-TS, or fragmented MP4 (CMAF) with init.mp4.", defaultValue: "ts"),
        .value("--x264-preset", placeholder: "name", help: "libx264 speed preset (ultrafast … veryslow); superfast keeps a live 720p ladder real time on 2 cores.",
               defaultValue: LadderSegmenter.Configuration.defaultX264Preset),
    ] + EncryptionOptions.specs

    static let x264Presets = LadderSegmenter.Configuration.x264Presets

    static func parse(_ args: ParsedArguments) throws(CLIError) -> SegmentingOptions {
        let preset = try PresetArgument.load(try args.required("--preset"))
        let out = try args.required("--out")
        var ladder = Ladder.standard
        if let text = args.value("--ladder") {
            do { ladder = try Ladder.parse(text) } catch { throw .usage("--ladder: \(error.description)") }
        }
        let segmentDuration = try args.decimal("--segment-duration", default: 6, in: 0.5...60)
        let formatText = args.value("--format") ?? "ts"
        guard let container = ContainerFormat(rawValue: formatText) else {
            throw .usage("--format expects ts or fmp4, got '\(formatText)'")
        }
        let x264Preset = args.value("--x264-preset") ?? LadderSegmenter.Configuration.defaultX264Preset
        guard x264Presets.contains(x264Preset) else {
            throw .usage("--x264-preset expects one of \(x264Presets.joined(separator: ", ")), got '\(x264Preset)'")
        }
        let encryption = try EncryptionOptions.parse(args, outputFolder: out)
        return SegmentingOptions(
            preset: preset, outputFolder: out, ladder: ladder, segmentDuration: segmentDuration,
            container: container, mode: .vod, x264Preset: x264Preset, encryption: encryption)
    }

    /// The segment length as an exact fraction (milliseconds).
    var segmentTimestamp: Timestamp { Timestamp(Int64((segmentDuration * 1000).rounded()), timescale: 1000) }
}

/// Prints the closing summary of a segmenting job.
enum SegmentingSummary {
    static func print(_ summary: LadderSegmenter.Summary, ladder: Ladder, elapsedSeconds: Double, output: TextOutput) {
        let seconds = summary.duration.seconds
        let speed = elapsedSeconds > 0 ? seconds / elapsedSeconds : 0
        output.line(
            "wrote \(summary.masterPlaylistPath): \(ladder.renditions.count) renditions, \(summary.segmentCount) segments, "
                + "\(ProgressLine.format(seconds, 2)) s of video in \(ProgressLine.format(elapsedSeconds, 2)) s "
                + "(\(ProgressLine.format(speed, 2))× real time)")
        for (rung, bandwidth) in zip(ladder.renditions, summary.bandwidths) {
            output.line("  \(rung.width)x\(rung.height)  target \(rung.bitsPerSecond / 1000)k  BANDWIDTH \(bandwidth)")
        }
    }
}
