import CLIKit
import FilterKit
import Foundation
import Media
import Photos
import Platform

/// `filterz photo apply IN… --preset P (-o OUT | --out-dir D)`: filtered, upright copies with the metadata carried.
enum PhotoApplyCommand {
    static let defaultQuality = 92
    static let preset = PresetLocator.option
    static let output = Option.optional(
        "--output", "-o", placeholder: "file",
        help: "Where to write the result of a single input (.jpg, .jpeg, .png or .heic).")
    static let outDir = Option.optional(
        "--out-dir", placeholder: "folder", help: "Write each result into this folder, under its input's name.")
    static let quality = Option.integer(
        "--quality", placeholder: "1-100", default: defaultQuality, in: 1...100, help: "JPEG and HEIC quality.")
    static let maxMegapixels = Option.integer(
        "--max-megapixels", placeholder: "MP", default: PhotoLimits.defaultMegapixels, in: 1...4_294,
        help: "Refuse, before decoding, a photo whose header claims more megapixels than this.")
    static let memoryLimit = Option.integer(
        "--memory-limit", placeholder: "MB", default: PhotoLimits.defaultMemoryMegabytes, in: 1...1_000_000_000,
        help:
            "Memory for the pixels of the photos done at once (8 bytes a pixel): photos wait for their share, and one that needs more alone is refused before decoding."
    )
    static let keepOriginal = Option.optional(
        "--keep-original", placeholder: "folder",
        help:
            "Also write each source, byte for byte, into this folder (as the app uploads original and filtered together)."
    )

    static var command: Command {
        Command(
            CommandSpec(
                name: "apply",
                abstract: "Write filtered, upright copies of photos with their EXIF, GPS, XMP and ICC profile.",
                discussion: """
                    Inputs: JPEG (baseline or progressive; CMYK is refused), PNG (8 or 16 bits, alpha kept) and \
                    HEIC/HEIF. The output format follows the output's extension: .jpg/.jpeg (libjpeg-turbo, --quality), \
                    .png, or .heic (libheif, x265). With --out-dir each result takes its input's name; JPEG and PNG \
                    keep their format, HEIC becomes .jpg. Photos are done side by side on all cores; a file that \
                    fails is one line on stderr and the others still come out. Every file is written to a temporary \
                    name and renamed, so nothing half-written is left. A photo whose header claims more than \
                    --max-megapixels, or more memory than --memory-limit, is refused before it is decoded (as \
                    ImageMagick's default policy refuses more than 128 MP). Exit 0 when every photo was written, 1 \
                    when a photo could not be done, 2 for bad usage or an input that cannot be read.
                    """,
                arguments: [ArgumentSpec("input", help: "Photos to filter (JPEG, PNG, HEIC).", isVariadic: true)],
                options: [
                    preset.spec, output.spec, outDir.spec, quality.spec, keepOriginal.spec, maxMegapixels.spec,
                    memoryLimit.spec,
                ],
                examples: [
                    "filterz photo apply IMG_0001.jpg --preset warm-film -o IMG_0001-warm.jpg",
                    "filterz photo apply *.jpg --preset noir --out-dir noir --keep-original originals",
                ]),
            action: run)
    }

    /// A `photo apply` command line checked whole (every option, then the preset read) before any photo is read
    /// or any folder made.
    struct Plan {
        var inputs: [String]
        var preset: Preset
        var quality: Int
        var output: String?
        var outDir: String?
        var keepOriginal: String?
        var limits: PhotoLimits

        static func parse(_ args: ParsedArguments, _ context: CommandContext) throws(CLIError) -> Plan {
            let inputs = args.positionals
            guard !inputs.isEmpty else { throw .usage("missing argument <input>") }
            let presetArgument = try args.get(PhotoApplyCommand.preset)
            let quality = try args.get(PhotoApplyCommand.quality)
            let output = try args.get(PhotoApplyCommand.output), outDir = try args.get(PhotoApplyCommand.outDir)
            let keepOriginal = try args.get(PhotoApplyCommand.keepOriginal)
            let limits = PhotoLimits(
                maximumPixels: try args.get(PhotoApplyCommand.maxMegapixels) * 1_000_000,
                maximumMemoryBytes: try args.get(PhotoApplyCommand.memoryLimit) * 1_000_000)
            switch (output, outDir) {
            case (nil, nil): throw .usage("give -o/--output (one input) or --out-dir")
            case (.some, .some): throw .usage("give either -o/--output or --out-dir, not both")
            case (.some, nil) where inputs.count > 1:
                throw .usage("-o/--output takes one input; use --out-dir for \(inputs.count)")
            default: break
            }
            if let output, PhotoFormat.forOutput(output) == nil {
                throw .usage(PhotoError.unsupportedOutput(output).description)
            }
            return Plan(
                inputs: inputs, preset: try PresetLocator(context).load(presetArgument), quality: quality,
                output: output, outDir: outDir, keepOriginal: keepOriginal, limits: limits)
        }
    }

    static func run(_ args: ParsedArguments, _ context: CommandContext) throws -> Int32 {
        try run(Plan.parse(args, context), context)
    }

    static func run(_ plan: Plan, _ context: CommandContext) throws(CLIError) -> Int32 {
        for folder in [plan.outDir, plan.keepOriginal].compactMap({ $0 }) {
            do {
                try AtomicFile.makeFolder(folder)
            } catch {
                throw .input("\(folder): cannot create folder: \(error.reason)")
            }
        }
        let inputs = plan.inputs
        let jobs = PhotoBatch.plan(
            inputs: inputs, output: plan.output, outDir: plan.outDir, keepOriginal: plan.keepOriginal)
        let batch = PhotoBatch(
            jobs: jobs.jobs, values: plan.preset.values, quality: plan.quality, limits: plan.limits, context: context)
        for problem in jobs.problems { context.stderr.line("\(problem.input): error: \(problem.message)") }
        let summary = batch.run()
        let failed = summary.failed + jobs.problems.count
        if inputs.count > 1 {
            let place = plan.outDir.map { " to \($0)" } ?? ""
            context.stdout.line(
                "photo apply: \(summary.written) of \(inputs.count) photos written\(place) with '\(plan.preset.name)'"
                    + (failed > 0 ? " (\(failed) failed)" : ""))
        }
        if summary.unreadable > 0 { return ExitCode.usage }
        return failed > 0 ? ExitCode.failure : ExitCode.success
    }
}
