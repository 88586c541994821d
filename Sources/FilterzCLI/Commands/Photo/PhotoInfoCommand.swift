import CLIKit
import Foundation
import HLS
import PhotoMetadata
import Photos

/// `filterz photo info IN [--json]`: the app's detail screen for one photo.
enum PhotoInfoCommand {
    static let json = Option.flag(
        "--json", help: "Print the details as one JSON object (snake_case keys; absent fields left out).")

    static var command: Command {
        Command(
            CommandSpec(
                name: "info",
                abstract: "Show a photo's details: camera, lens, exposure, capture time, location, size, profile.",
                discussion: """
                    Read from the metadata without decoding the pixels: camera make and model, lens, focal length \
                    (and its 35 mm equivalent), aperture, ISO, shutter speed, capture time with its time zone offset, \
                    GPS position in decimal degrees with altitude and a map link, pixel size (upright), orientation, \
                    colour profile and file size. Fields the photo does not record are left out. Malformed metadata \
                    is reported as warnings on stderr with what could be read (exit 0); exit 1 when the file is not a \
                    photo, 2 when it cannot be read.
                    """,
                arguments: [ArgumentSpec("input", help: "A JPEG, PNG or HEIC/HEIF photo.")],
                options: [json.spec],
                examples: ["filterz photo info IMG_0001.heic", "filterz photo info IMG_0001.jpg --json"]),
            action: run)
    }

    /// A `photo info` command line checked whole before the photo is read.
    struct Plan {
        var path: String
        var json: Bool

        static func parse(_ args: ParsedArguments) throws(CLIError) -> Plan {
            Plan(path: try args.positional(0, "input"), json: try args.get(PhotoInfoCommand.json))
        }
    }

    static func run(_ args: ParsedArguments, _ context: CommandContext) throws -> Int32 {
        try run(Plan.parse(args), context)
    }

    static func run(_ plan: Plan, _ context: CommandContext) throws(CLIError) -> Int32 {
        let path = plan.path
        let bytes = try PhotoFile.read(path)
        let details: PhotoDetails
        do {
            details = try PhotoReader.details(bytes)
        } catch {
            throw .failure("\(path): \(error.description)")
        }
        for warning in MetadataWarning.collapsingRepeats(details.warnings) where warning.severity == .warning {
            context.stderr.line("\(path): \(warning.description)")
        }
        if plan.json {
            context.stdout.line(PhotoInfoReport.json(details, file: path).rendered())
        } else {
            context.stdout.write(PhotoInfoReport.text(details, file: path))
        }
        return ExitCode.success
    }
}
