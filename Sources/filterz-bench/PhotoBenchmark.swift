import CLIKit
import FilterKit
import Foundation
import HLS
import Inspect
import JSON
import Parallel
import PhotoMetadata
import Photos
import RealClients

/// `filterz-bench photo`: a 12-megapixel camera JPEG through the all-12 preset to JPEG, as a whole `filterz photo
/// apply` process, against ImageMagick and libvips doing the nearest chain, in the same run.
///
/// The input is made here: a 4000×3000 simulated camera frame encoded at quality 92 with camera EXIF and GPS.
/// - Ours: `filterz photo apply in.jpg --preset all-12.json -o out.jpg --quality 92` (the release `filterz`
///   beside this executable), three runs; the figure is the median wall time, start-up and file I/O included.
/// - ImageMagick: `convert in.jpg -modulate 105,110 -brightness-contrast 5x15 -level 2%,100% -unsharp 0x1+0.6
///   -blur 0x10 -vignette 0x20 -quality 92 out.jpg`, one run (it takes tens of seconds).
/// - libvips: the `vips` command line, one operation per process through `.v` files in a RAM folder (that is how
///   its CLI chains): LCh saturation, a linear colour step, a 3×3 median, `sharpen`, `gaussblur 10`, a Gaussian
///   mask multiplied in for the vignette, `jpegsave --Q 92`; two runs, the median of their summed wall times.
/// Peak memory: each process's own peak resident size (ours: the largest of its runs), as GNU `time` reports it. A
/// 48-megapixel photo (8000×6000) is also run once through ours, to report its peak against the photo's RGBA size
/// (target: well under 4×).
/// The first line after the input's is the time spent inside one apply in this process (decode, render, encode).
/// Last line: `{"bench":"photo","ours_s":…,"imagemagick_s":…,"vips_s":…,"ratio_vs_imagemagick":…,"ratio_vs_vips":…,
/// "peak_mb":…}`, ratios = anchor ÷ ours (higher is better), `peak_mb` ours on the 12-megapixel photo.
enum PhotoBenchmark {
    static let imageMagickChain = [
        "-modulate", "105,110", "-brightness-contrast", "5x15", "-level", "2%,100%", "-unsharp", "0x1+0.6",
        "-blur", "0x10", "-vignette", "0x20", "-quality", "92",
    ]

    static func run() -> Int32 {
        guard let filterz = ChildProcess.builtFilterz() else {
            print("photo benchmark needs the filterz binary beside filterz-bench (swift build -c release)")
            return 1
        }
        let base = FileManager.default.fileExists(atPath: "/dev/shm") ? "/dev/shm" : NSTemporaryDirectory()
        let folder = (base as NSString).appendingPathComponent("filterz-bench-photo-\(getpid())")
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        func path(_ name: String) -> String { (folder as NSString).appendingPathComponent(name) }

        let cores = ProcessInfo.processInfo.activeProcessorCount
        print(
            "photo benchmark: filterz photo apply vs ImageMagick \(version("convert", ["-version"])) and vips \(version("vips", ["--version"])) (\(cores) cores)"
        )
        let preset = path("all-12.json")
        let input = path("in.jpg"), input48 = path("in48.jpg")
        do {
            try Data(Preset(name: "all-12", values: FilterBenchmark.allTwelve).jsonBytes()).write(
                to: URL(fileURLWithPath: preset))
            try Data(cameraJPEG(width: 4000, height: 3000)).write(to: URL(fileURLWithPath: input))
            try Data(cameraJPEG(width: 8000, height: 6000)).write(to: URL(fileURLWithPath: input48))
        } catch {
            print("photo benchmark: cannot write the inputs: \(error)")
            return 1
        }
        let inputSize = (try? FileManager.default.attributesOfItem(atPath: input)[.size] as? Int) ?? 0
        print(
            "input: 4000x3000 JPEG, quality 92, \(DetailFormat.fileSize(inputSize)), camera EXIF and GPS; preset all-12 (blur 10)"
        )
        inProcessBreakdown(input)

        let ours = {
            ChildProcess.run(
                filterz, ["photo", "apply", input, "--preset", preset, "-o", path("ours.jpg"), "--quality", "92"])
        }
        var oursRuns: [ChildProcess.Measurement] = [], vipsRuns: [Double] = [], vipsPeak = 0
        var imageMagick: ChildProcess.Measurement?
        let convert = ExternalTool.path(of: "convert"), vips = ExternalTool.path(of: "vips")
        // Interleaved, so a change in the machine's load touches every contender.
        for round in 0..<3 {
            if let run = ours(), run.exitCode == 0 { oursRuns.append(run) }
            if round < 2, let vips, let chain = vipsChain(vips, input: input, output: path("vips.jpg"), folder: folder)
            {
                vipsRuns.append(chain.seconds)
                vipsPeak = max(vipsPeak, chain.peakBytes)
            }
            if round == 0, let convert {
                imageMagick = ChildProcess.run(convert, [input] + imageMagickChain + [path("im.jpg")])
            }
        }
        guard !oursRuns.isEmpty else {
            print("photo benchmark: filterz photo apply failed")
            return 1
        }
        let oursSeconds = Measuring.median(oursRuns.map(\.seconds))
        let peak = oursRuns.map(\.peakBytes).max() ?? 0
        let rgba12 = 4000 * 3000 * 4
        print(
            String(
                format: "  ours         %6.2f s (runs %@), peak %.0f MB = %.2f× the photo's RGBA (%.0f MB)",
                oursSeconds,
                oursRuns.map { fixedNumber($0.seconds, digits: 2) }.joined(separator: ", "), megabytes(peak),
                Double(peak) / Double(rgba12), megabytes(rgba12)))
        let imageMagickSeconds = imageMagick.flatMap { $0.exitCode == 0 ? $0.seconds : nil }
        if let imageMagick {
            print(
                String(
                    format: "  ImageMagick  %6.2f s, peak %.0f MB%@", imageMagick.seconds,
                    megabytes(imageMagick.peakBytes),
                    imageMagick.exitCode == 0 ? "" : " (exit \(imageMagick.exitCode))"))
        } else {
            print("  ImageMagick  not installed (make deps installs imagemagick)")
        }
        let vipsSeconds = vipsRuns.isEmpty ? nil : Measuring.median(vipsRuns)
        if let vipsSeconds {
            print(
                String(
                    format: "  vips         %6.2f s (runs %@), largest step's peak %.0f MB", vipsSeconds,
                    vipsRuns.map { fixedNumber($0, digits: 2) }.joined(separator: ", "), megabytes(vipsPeak)))
        } else {
            print("  vips         not run (make deps installs libvips-tools)")
        }
        if let big = ChildProcess.run(
            filterz, ["photo", "apply", input48, "--preset", preset, "-o", path("ours48.jpg")]), big.exitCode == 0
        {
            let rgba48 = 8000 * 6000 * 4
            print(
                String(
                    format: "  ours, 48 MP  %6.2f s, peak %.0f MB = %.2f× the photo's RGBA (%.0f MB)", big.seconds,
                    megabytes(big.peakBytes), Double(big.peakBytes) / Double(rgba48), megabytes(rgba48)))
        }
        let number = { (value: Double?) in ResultLine.number(value) }
        ResultLine.print(
            "photo",
            [
                ("ours_s", number(oursSeconds)), ("imagemagick_s", number(imageMagickSeconds)),
                ("vips_s", number(vipsSeconds)),
                ("ratio_vs_imagemagick", number(imageMagickSeconds.map { $0 / oursSeconds })),
                ("ratio_vs_vips", number(vipsSeconds.map { $0 / oursSeconds })),
                ("peak_mb", ResultLine.number(megabytes(peak), places: 1)),
            ])
        return 0
    }

    /// A simulated camera frame as a quality-92 JPEG with a camera's EXIF (make, model, exposure, capture time, GPS).
    static func cameraJPEG(width: Int, height: Int) throws -> [UInt8] {
        let frame = SimulatedCamera(.init(width: width, height: height, durationSeconds: 2, seed: 12)).frame(
            atSeconds: 0.5
        ).image
        let order = ByteOrder.littleEndian
        func ascii(_ tag: UInt16, _ text: String) -> IFDEntry {
            IFDEntry(tag: tag, type: .ascii, count: UInt32(text.utf8.count + 1), bytes: Array(text.utf8) + [0])
        }
        func rational(_ tag: UInt16, _ values: [(UInt32, UInt32)]) -> IFDEntry {
            IFDEntry(
                tag: tag, type: .rational, count: UInt32(values.count),
                bytes: values.flatMap { order.bytes($0.0) + order.bytes($0.1) })
        }
        let exif = ExifMetadata(
            byteOrder: order,
            ifd0: IFD(
                kind: .ifd0,
                entries: [
                    ascii(ExifTag.make, "Filterz"), ascii(ExifTag.model, "Bench Camera"),
                    .short(ExifTag.orientation, 1, order: order),
                ]),
            exif: IFD(
                kind: .exif,
                entries: [
                    rational(ExifTag.exposureTime, [(1, 120)]), rational(ExifTag.fNumber, [(18, 10)]),
                    .short(ExifTag.photographicSensitivity, 125, order: order),
                    ascii(ExifTag.dateTimeOriginal, "2024:05:01 14:03:22"),
                    .long(ExifTag.pixelXDimension, UInt32(width), order: order),
                    .long(ExifTag.pixelYDimension, UInt32(height), order: order),
                ]),
            gps: IFD(
                kind: .gps,
                entries: [
                    ascii(ExifTag.gpsLatitudeRef, "N"), rational(ExifTag.gpsLatitude, [(35, 1), (39, 1), (3093, 100)]),
                    ascii(ExifTag.gpsLongitudeRef, "E"),
                    rational(ExifTag.gpsLongitude, [(139, 1), (44, 1), (4356, 100)]),
                ]))
        return try PhotoWriter.encode(frame, metadata: CarriedMetadata(exif: exif), as: .jpeg, quality: 92).bytes
    }

    /// The vips chain, one process per step; the summed wall time and the largest step's peak memory.
    static func vipsChain(_ vips: String, input: String, output: String, folder: String) -> (
        seconds: Double, peakBytes: Int
    )? {
        func v(_ name: String) -> String { (folder as NSString).appendingPathComponent(name + ".v") }
        let steps: [[String]] = [
            ["colourspace", input, v("lch"), "lch"],
            ["linear", v("lch"), v("saturated"), "1 1.1 1", "0 0 0"],
            ["colourspace", v("saturated"), v("rgb"), "srgb"],
            // Brightness, exposure, contrast, black point and a warmer white balance as one per-channel line.
            ["linear", v("rgb"), v("graded"), "1.30 1.25 1.14", " -20 -20 -20", "--uchar"],
            ["rank", v("graded"), v("denoised"), "3", "3", "4"],
            ["sharpen", v("denoised"), v("sharp"), "--sigma", "1"],
            ["gaussblur", v("sharp"), v("blurred"), "10"],
            ["mask_gaussian", v("mask"), "4000", "3000", "0.7", "0.5", "--optical"],
            ["multiply", v("blurred"), v("mask"), v("vignetted")],
            ["cast", v("vignetted"), v("bytes"), "uchar"],
            ["jpegsave", v("bytes"), output, "--Q", "92"],
        ]
        var seconds = 0.0, peak = 0
        for step in steps {
            guard let run = ChildProcess.run(vips, step), run.exitCode == 0 else {
                print("  vips \(step.joined(separator: " ")) failed")
                return nil
            }
            seconds += run.seconds
            peak = max(peak, run.peakBytes)
        }
        for name in ["lch", "saturated", "rgb", "graded", "denoised", "sharp", "blurred", "mask", "vignetted", "bytes"]
        {
            try? FileManager.default.removeItem(atPath: v(name))
        }
        return (seconds, peak)
    }

    /// Where the time goes inside one apply (this process, all cores): decode, turn upright, render, encode.
    static func inProcessBreakdown(_ input: String) {
        guard let data = FileManager.default.contents(atPath: input) else { return }
        let renderer = FilterRenderer(
            values: FilterBenchmark.allTwelve, threads: .allCores)
        do {
            let start = Date()
            let photo = try PhotoReader.decode([UInt8](data))
            let decoded = Date()
            let upright = photo.orientation.apply(to: photo.frame)
            let filtered = renderer.renderImage(upright)
            let rendered = Date()
            let encoded = try PhotoWriter.encode(
                filtered, metadata: photo.metadata.forUprightCopy(width: filtered.width, height: filtered.height),
                as: .jpeg, quality: 92, like: photo)
            let end = Date()
            print(
                String(
                    format: "in process: decode %.2f s, render %.2f s, encode %.2f s (%@)",
                    decoded.timeIntervalSince(start),
                    rendered.timeIntervalSince(decoded), end.timeIntervalSince(rendered),
                    DetailFormat.fileSize(encoded.bytes.count)))
        } catch {
            print("in process: \(error)")
        }
    }

    static func megabytes(_ bytes: Int) -> Double { Double(bytes) / 1_000_000 }

    /// The first line of `tool arguments…` (its version), or "not installed".
    static func version(_ tool: String, _ arguments: [String]) -> String {
        guard let path = ExternalTool.path(of: tool) else { return "(not installed)" }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return "(not runnable)" }
        let text = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        let first = text.split(separator: "\n").first.map(String.init) ?? ""
        return first.split(separator: " ").prefix(3).joined(separator: " ")
    }
}
