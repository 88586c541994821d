import CLIKit

/// `filterz photo apply|info`: a preset applied to camera photos, and a photo's detail screen.
enum PhotoCommand {
    static var command: Command {
        Command(
            CommandSpec(
                name: "photo",
                abstract:
                    "Apply a preset to photos (JPEG, PNG, HEIC), upright and with their metadata, or show a photo's details.",
                discussion: """
                    Photos are filtered by the same renderer as preview, record and package. Every EXIF, TIFF and GPS \
                    tag reaches the output unchanged except Orientation (written as 1: the pixels are turned upright), \
                    the pixel dimensions and the embedded thumbnail (dropped); XMP and the ICC profile are carried too. \
                    See docs/PHOTOS.md.
                    """,
                examples: [
                    "filterz photo apply IMG_0001.heic --preset warm-film -o warm.jpg",
                    "filterz photo apply shots/*.jpg --preset noir --out-dir filtered",
                    "filterz photo info IMG_0001.jpg --json",
                ]),
            subcommands: [PhotoApplyCommand.command, PhotoInfoCommand.command])
    }
}
