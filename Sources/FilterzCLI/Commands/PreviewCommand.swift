import CLIKit
import FilterKit
import Foundation
import Media
import Parallel
import Platform

/// `filterz preview`: one simulated camera frame before and after a preset, side by side, as a PNG.
enum PreviewCommand {
    static var command: Command {
        Command(
            CommandSpec(
                name: "preview",
                abstract: "Write a PNG of a camera frame before and after a preset, side by side and labelled.",
                discussion: """
                    The frame comes from the seeded simulated camera (colour chart, skin tones, sky, moving shapes, \
                    noise, frame counter) at --size (height > width gives a portrait frame) and time --at. The \
                    right half is rendered with FilterKit's fast path, the same code the video pipeline uses. \
                    The PNG is encoded with libavcodec and written to a temporary name, then renamed.
                    """,
                options: [preset.spec, seed.spec, size.spec, at.spec, output.spec],
                examples: [
                    "filterz preview --preset warm-film -o preview.png",
                    "filterz preview --preset ./my-look.json --seed 7 --size 360x640 --at 2.5 -o portrait.png",
                ]),
            action: run)
    }

    static let preset = PresetLocator.option
    static let seed = Option.integer(
        "--seed", placeholder: "n", default: 1, in: 0...Int.max,
        help: "Camera seed: the same seed gives the same frame.")
    static let size = Option.text(
        "--size", placeholder: "WxH", default: "640x360", help: "Size of each half in pixels.")
    static let at = Option.decimal(
        "--at", placeholder: "seconds", default: 1, in: 0...86_400, help: "Camera time of the frame.")
    static let output = Option.required("--output", "-o", placeholder: "file.png", help: "Where to write the PNG.")

    /// A checked `preview` command line: the preset read, the frame chosen, where the PNG goes.
    struct Plan {
        var preset: Preset
        var output: String
        var seed: Int
        var seconds: Double
        var width: Int
        var height: Int

        /// Checks every option, then reads the preset (found with the context's environment).
        static func parse(_ args: ParsedArguments, _ context: CommandContext) throws(CLIError) -> Plan {
            let presetArgument = try args.get(PreviewCommand.preset)
            let output = try args.get(PreviewCommand.output)
            let seed = try args.get(PreviewCommand.seed)
            let seconds = try args.get(PreviewCommand.at)
            let (width, height) = try parseSize(args.get(PreviewCommand.size))
            return Plan(
                preset: try PresetLocator(context).load(presetArgument), output: output, seed: seed, seconds: seconds,
                width: width, height: height)
        }
    }

    static func run(_ args: ParsedArguments, _ context: CommandContext) throws -> Int32 {
        try run(Plan.parse(args, context), context)
    }

    /// Renders the frame before and after the preset and writes the PNG.
    static func run(_ plan: Plan, _ context: CommandContext) throws(CLIError) -> Int32 {
        let camera = SimulatedCamera(
            .init(
                width: plan.width, height: plan.height, framesPerSecond: 30, durationSeconds: plan.seconds + 1,
                orientation: plan.height > plan.width ? .portrait : .landscape, seed: UInt64(plan.seed)))
        let before = camera.frame(atSeconds: plan.seconds).image
        let after = FilterRenderer(values: plan.preset.values, threads: .allCores)
            .renderImage(before)
        let sheet = sideBySide(before, after, leftLabel: "BEFORE", rightLabel: "AFTER: \(plan.preset.name)")
        let png: [UInt8]
        do {
            png = try PNGEncoder.png(from: sheet)
        } catch {
            throw CLIError.failure("\(plan.output): PNG encoding failed: \(error)")
        }
        try writeAtomically(png, to: plan.output)
        context.stdout.line(
            "\(plan.output): \(sheet.width)x\(sheet.height) PNG, camera frame at \(PresetCommand.format(plan.seconds)) s (seed \(plan.seed)) before and after '\(plan.preset.name)'"
        )
        return ExitCode.success
    }

    /// `WxH` with both sides in 16…4096.
    static func parseSize(_ text: String) throws(CLIError) -> (Int, Int) {
        let parts = text.lowercased().split(separator: "x")
        guard parts.count == 2, let width = Int(parts[0]), let height = Int(parts[1]),
            (16...4096).contains(width), (16...4096).contains(height)
        else { throw .usage("--size expects WxH with sides in 16…4096, got '\(text)'") }
        return (width, height)
    }

    /// The two frames on a dark sheet with a gap between them and a label band above each.
    static func sideBySide(_ left: Frame, _ right: Frame, leftLabel: String, rightLabel: String) -> Frame {
        let scale = max(1, min(left.width, left.height) / 180)
        let gap = 4 * scale, band = 11 * scale
        var sheet = Frame(rgbaWidth: 2 * left.width + 3 * gap, height: left.height + band + gap)
        BitmapFont.fill(&sheet, x: 0, y: 0, width: sheet.width, height: sheet.height, colour: SIMD4(24, 24, 24, 255))
        for (index, (frame, label)) in [(left, leftLabel), (right, rightLabel)].enumerated() {
            let x0 = gap + index * (left.width + gap), y0 = band
            let source = frame.planes[0], stride = sheet.planes[0].bytesPerRow
            for y in 0..<frame.height {
                let from = y * source.bytesPerRow, to = (y0 + y) * stride + x0 * 4
                sheet.planes[0].bytes.replaceSubrange(
                    to..<(to + frame.width * 4),
                    with: source.bytes[from..<(from + frame.width * 4)])
            }
            let maxCharacters = max(1, (frame.width / scale + 1) / BitmapFont.advance)
            BitmapFont.draw(String(label.prefix(maxCharacters)), into: &sheet, x: x0, y: 2 * scale, scale: scale)
        }
        return sheet
    }

    static func writeAtomically(_ bytes: [UInt8], to path: String) throws(CLIError) {
        do {
            try AtomicFile.write(bytes, to: path)
        } catch {
            throw .input("\(path): cannot write: \(error.reason)")
        }
    }
}
