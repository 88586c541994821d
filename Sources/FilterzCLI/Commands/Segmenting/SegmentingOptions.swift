import CLIKit
import FilterKit
import Media
import Packaging
import Recording

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
    var encryption: KeySettings?

    static let preset = PresetLocator.option
    static let out = Option.required(
        "--out", "-o", placeholder: "folder",
        help: "Output folder, replaced whole once the ladder is complete (--live: written in place).")
    static let ladder = Option.optional(
        "--ladder", placeholder: "WxH@RATE,…",
        shownDefault: Ladder.standard.renditions.map(\.description).joined(separator: ","),
        help: "Renditions, e.g. 1920x1080@6000k,1280x720@3000k; never above the source size.")
    static let segmentDuration = Option.decimal(
        "--segment-duration", placeholder: "seconds", default: 6, in: 0.5...60,
        help: "Target segment duration (whole frames).")
    static let format = Option.text(
        "--format", placeholder: "ts|fmp4", default: ContainerFormat.mpegTS.rawValue,
        help: "Segment container: MPEG-TS, or fragmented MP4 (CMAF) with init.mp4.")
    static let x264Preset = Option.text(
        "--x264-preset", placeholder: "name", default: LadderSegmenter.Configuration.defaultX264Preset,
        help: "libx264 speed preset (ultrafast … veryslow); superfast keeps a live 720p ladder real time on 2 cores.")

    static let specs: [OptionSpec] =
        [preset.spec, out.spec, ladder.spec]
        + [segmentDuration.spec, format.spec, x264Preset.spec] + EncryptionOptions.specs

    static let x264Presets = LadderSegmenter.Configuration.x264Presets

    /// The options of `args`, the preset found with the context's environment (as every command finds presets).
    /// Every option is checked before the preset is read, so a usage error comes before any file is opened.
    static func parse(_ args: ParsedArguments, _ context: CommandContext) throws(CLIError) -> SegmentingOptions {
        let presetArgument = try args.get(Self.preset)
        let out = try args.get(Self.out)
        var ladder = Ladder.standard
        if let text = try args.get(Self.ladder) {
            do { ladder = try Ladder.parse(text) } catch { throw .usage("--ladder: \(error.description)") }
        }
        let segmentDuration = try args.get(Self.segmentDuration)
        let formatText = try args.get(format)
        guard let container = ContainerFormat(rawValue: formatText) else {
            throw .usage("--format expects ts or fmp4, got '\(formatText)'")
        }
        let x264Preset = try args.get(Self.x264Preset)
        guard x264Presets.contains(x264Preset) else {
            throw .usage("--x264-preset expects one of \(x264Presets.joined(separator: ", ")), got '\(x264Preset)'")
        }
        let encryption = try EncryptionOptions.parse(args, outputFolder: out, environment: context.environment)
        return SegmentingOptions(
            preset: try PresetLocator(context).load(presetArgument), outputFolder: out, ladder: ladder,
            segmentDuration: segmentDuration,
            container: container, mode: .vod, x264Preset: x264Preset, encryption: encryption)
    }

    /// The segment length as an exact fraction (milliseconds).
    var segmentTimestamp: Timestamp { Timestamp(Int64((segmentDuration * 1000).rounded()), timescale: 1000) }

    /// The recording these options ask for (LL-HLS parts with `lowLatency`).
    func recordingSettings(lowLatency: LowLatencySettings? = nil) -> Recording.Settings {
        Recording.Settings(
            preset: preset, outputFolder: outputFolder, ladder: ladder, segmentDuration: segmentTimestamp,
            container: container, mode: mode, x264Preset: x264Preset, keys: encryption, lowLatency: lowLatency)
    }
}
