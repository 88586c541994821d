import CLIKit
import Media
import Recording

/// `filterz package`: a video file → the same filtered HLS ladder `record` makes.
enum PackageCommand {
    static var command: Command {
        Command(
            CommandSpec(
                name: "package",
                abstract: "Filter a video file and package it as a multi-rendition HLS ladder.",
                discussion: """
                    Decodes any video libav can read (rotation metadata honoured, so portrait phone videos stay
                    upright), applies the preset once at the source size, scales to each rendition and encodes.
                    Audio is re-encoded to AAC-LC (a file without audio is fine). The ladder is written beside
                    --out and swapped in whole when complete: bad input is one error line naming the file, exit
                    code 1, and an earlier package in --out stays as it was.
                    """,
                arguments: [ArgumentSpec("input", help: "The video file.")],
                options: SegmentingOptions.specs,
                examples: [
                    "filterz package clip.mp4 --preset warm-film --out out/clip",
                    "filterz package phone.mov --preset noir --segment-duration 2 --format fmp4 --out out/phone",
                ]),
            action: run)
    }

    /// A `package` command line checked whole (every option, then the preset read) before the video is opened.
    struct Plan {
        var input: String
        var settings: Recording.Settings

        static func parse(_ args: ParsedArguments, _ context: CommandContext) throws(CLIError) -> Plan {
            let input = try args.positional(0, "input")
            return Plan(input: input, settings: try SegmentingOptions.parse(args, context).recordingSettings())
        }
    }

    static func run(_ args: ParsedArguments, _ context: CommandContext) throws -> Int32 {
        try run(Plan.parse(args, context), context)
    }

    static func run(_ plan: Plan, _ context: CommandContext) throws -> Int32 {
        LibavLogging.setQuiet(true)
        let reader: VideoFileReader
        do {
            reader = try VideoFileReader(path: plan.input)
        } catch {
            throw CLIError.failure(error.description)
        }
        return try RecordingRun.run(Recording(plan.settings, source: VideoFileSource(reader)), context)
    }
}
