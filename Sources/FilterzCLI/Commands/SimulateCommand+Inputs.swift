import CLIKit
import Foundation
import Playback
import Simulation

/// Reads the network of `filterz simulate`: a trace file, a folder of traces, or a constant link.
enum TraceLoader {
    static func load(_ path: String) throws(CLIError) -> NetworkTrace {
        let url = URL(fileURLWithPath: path)
        let data = try InputFile.read(path, what: "trace")
        do {
            return try NetworkTrace(json: data, fallbackName: url.deletingPathExtension().lastPathComponent)
        } catch {
            throw .failure("\(path): \(error.description)")
        }
    }

    /// Samples of all the traces of one batch (they are all in memory at once: 24 bytes each).
    static let maximumBatchPeriods = 20_000_000

    /// Every `*.json` under `folder`, sorted by path (deterministic), with at most `maximumPeriods` samples in all.
    static func loadFolder(_ folder: String, maximumPeriods: Int = maximumBatchPeriods) throws(CLIError)
        -> [NetworkTrace]
    {
        let root = URL(fileURLWithPath: folder)
        guard let walker = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil) else {
            throw .input("cannot read folder \(folder)")
        }
        var paths: [String] = []
        for case let url as URL in walker where url.pathExtension == "json" { paths.append(url.path) }
        paths.sort()
        guard !paths.isEmpty else { throw .input("no *.json traces under \(folder)") }
        var traces: [NetworkTrace] = []
        var periods = 0
        for path in paths {
            let trace = try load(path)
            periods += trace.periods.count
            guard periods <= maximumPeriods else {
                throw .failure(
                    "\(folder): more than \(maximumPeriods) samples in all (reached at \(path)); split the batch")
            }
            traces.append(trace)
        }
        return traces
    }
}

/// The files `simulate` reads whole (a trace, a movie manifest): at most `maximumBytes`, so that a huge file is
/// refused before it is read rather than after.
enum InputFile {
    /// 256 MiB: a trace of the most samples allowed (a million) takes about 70 MB.
    static let maximumBytes = 256 << 20

    static func read(_ path: String, what: String) throws(CLIError) -> Data {
        let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
        guard size <= maximumBytes else {
            throw .failure("\(path): \(size) bytes; a \(what) file is at most \(maximumBytes >> 20) MiB")
        }
        do {
            return try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw .input("cannot read \(what) \(path): \(error.localizedDescription)")
        }
    }
}

/// Units on the command line: `3mbps`, `800kbps`, `2500000` (bit/s); `40ms`, `0.04s`, `0.04`.
enum Quantity {
    static func bitsPerSecond(_ text: String, option: String) throws(CLIError) -> Double {
        let lower = text.lowercased()
        let units: [(String, Double)] = [("gbps", 1e9), ("mbps", 1e6), ("kbps", 1e3), ("bps", 1)]
        for (suffix, factor) in units where lower.hasSuffix(suffix) {
            if let value = Double(lower.dropLast(suffix.count)), value > 0, value.isFinite { return value * factor }
        }
        if let value = Double(lower), value > 0, value.isFinite { return value }
        throw .usage("\(option) expects a positive rate like 3mbps or 800kbps, got '\(text)'")
    }

    /// A constant link (`simulate --bandwidth --latency`, `serve --shape RATE,LATENCY`), checked against
    /// `TraceLimits`.
    static func constantLink(rate: String, latency latencyText: String, rateOption: String, latencyOption: String)
        throws(CLIError) -> NetworkTrace
    {
        let bitsPerSecond = try bitsPerSecond(rate, option: rateOption)
        guard TraceLimits.linkBitsPerSecond.contains(bitsPerSecond) else {
            throw .usage("\(rateOption) expects a rate in 1kbps…100gbps, got '\(rate)'")
        }
        let latency = try seconds(latencyText, option: latencyOption)
        guard TraceLimits.latencyMilliseconds.contains(latency * 1000) else {
            throw .usage("\(latencyOption) expects a time in 0…60s, got '\(latencyText)'")
        }
        do throws(TraceError) {
            return try NetworkTrace.constant(bitsPerSecond: bitsPerSecond, latencySeconds: latency)
        } catch {
            throw .usage("\(rateOption): \(error.description)")
        }
    }

    static func seconds(_ text: String, option: String) throws(CLIError) -> Double {
        let lower = text.lowercased()
        if lower.hasSuffix("ms"), let value = Double(lower.dropLast(2)), value >= 0, value.isFinite {
            return value / 1000
        }
        if lower.hasSuffix("s"), let value = Double(lower.dropLast()), value >= 0, value.isFinite { return value }
        if let value = Double(lower), value >= 0, value.isFinite { return value }
        throw .usage("\(option) expects a time like 40ms or 0.04s, got '\(text)'")
    }
}

/// `--viewport 390x844@3`.
enum Screen {
    /// Sides in points, 1…10000; scale 1…10.
    static let points = 1...10_000

    static func parse(_ text: String) throws(CLIError) -> DeviceScreen {
        let parts = text.split(separator: "@")
        let size = parts.first?.split(separator: "x").compactMap { Int($0) } ?? []
        let scale = parts.count == 2 ? Int(parts[1]) : (parts.count == 1 ? 1 : nil)
        guard size.count == 2, points.contains(size[0]), points.contains(size[1]), let scale, (1...10).contains(scale)
        else {
            throw .usage(
                "--viewport expects WIDTHxHEIGHT@SCALE in points (sides 1…10000, scale 1…10), e.g. 390x844@3, got '\(text)'"
            )
        }
        return DeviceScreen(widthPoints: size[0], heightPoints: size[1], scale: scale)
    }
}

/// The viewer actions of the command line, in time order.
struct ViewerSchedule {
    enum Entry {
        case rotate(Double, Orientation)
        /// A quality as given (a name, an index or auto): only the stream says which it is.
        case select(Double, String)
        case seek(Double, Double)
        case subtitles(String?)
    }

    var entries: [Entry] = []

    static func parse(_ args: ParsedArguments) throws(CLIError) -> ViewerSchedule {
        var schedule = ViewerSchedule()
        for text in try args.get(SimulateCommand.rotate) {
            let (time, value) = try split(text, option: "--rotate")
            guard let orientation = Orientation(rawValue: value.lowercased()) else {
                throw .usage("--rotate expects T:portrait or T:landscape, got '\(text)'")
            }
            schedule.entries.append(.rotate(time, orientation))
        }
        for text in try args.get(SimulateCommand.select) {
            let (time, value) = try split(text, option: "--select")
            schedule.entries.append(.select(time, value))
        }
        for text in try args.get(SimulateCommand.seek) {
            let (time, value) = try split(text, option: "--seek")
            guard let target = Double(value), target >= 0, target <= SimulationLimits.maximumStreamSeconds else {
                throw .usage("--seek expects T:POSITION with POSITION in 0…86400 seconds, got '\(text)'")
            }
            schedule.entries.append(.seek(time, target))
        }
        if let language = try args.get(SimulateCommand.subtitles) {
            schedule.entries.append(.subtitles(language.lowercased() == "off" ? nil : language))
        }
        return schedule
    }

    private static func split(_ text: String, option: String) throws(CLIError) -> (Double, String) {
        let parts = text.split(separator: ":", maxSplits: 1).map(String.init)
        guard parts.count == 2, let time = Double(parts[0]), SimulationLimits.actionSeconds.contains(time) else {
            throw .usage("\(option) expects T:VALUE with T in 0…604800 seconds, got '\(text)'")
        }
        return (time, parts[1])
    }

    /// The schedule as actions on `manifest`, ordered by time (stable for equal times).
    /// - Throws: a usage error for a `--select` quality the stream does not have.
    func actions(screen: DeviceScreen?, manifest: StreamManifest) throws(CLIError) -> [ViewerAction] {
        var actions: [ViewerAction] = []
        for entry in entries {
            switch entry {
            case .rotate(let t, let orientation):
                actions.append(
                    ViewerAction(timeSeconds: t, kind: .rotate(orientation, viewport: screen?.viewport(orientation))))
            case .select(let t, let value):
                let (choice, name) = try Self.quality(value, of: manifest)
                actions.append(ViewerAction(timeSeconds: t, kind: .select(choice, name: name)))
            case .seek(let t, let target):
                actions.append(ViewerAction(timeSeconds: t, kind: .seek(toSeconds: target)))
            case .subtitles(let language):
                actions.append(ViewerAction(timeSeconds: 0, kind: .subtitles(language)))
            }
        }
        return actions.enumerated().sorted { ($0.element.timeSeconds, $0.offset) < ($1.element.timeSeconds, $1.offset) }
            .map(\.element)
    }

    /// The quality a `--select` value names: auto, a level name of the stream (any case), or a level index.
    static func quality(_ value: String, of manifest: StreamManifest) throws(CLIError) -> (QualityChoice, String) {
        if value.lowercased() == "auto" { return (.auto, "auto") }
        if let level = manifest.levelNames.firstIndex(where: { $0.lowercased() == value.lowercased() }) {
            return (.fixed(variantIndex: level), manifest.levelNames[level])
        }
        if let level = Int(value), manifest.levelNames.indices.contains(level) {
            return (.fixed(variantIndex: level), manifest.levelNames[level])
        }
        throw .usage(
            "--select: no quality '\(value)'; the stream has \(manifest.levelNames.joined(separator: ", ")) (or auto, or an index)"
        )
    }
}

/// Reads the stream of `filterz simulate`.
enum StreamLoader {
    /// The manifest, and what a live playlist says of itself (nil for a manifest JSON or a VOD).
    static func load(_ argument: String) throws(CLIError) -> (StreamManifest, HLSStreamManifest.LiveFacts?) {
        if argument.hasSuffix(".json") {
            let data = try InputFile.read(argument, what: "manifest")
            do {
                return (try StreamManifest(movieJSON: data, name: argument), nil)
            } catch {
                throw .failure(error.description)
            }
        }
        return try HLSStreamManifest.loadStream(argument, loader: ResourceLoader())
    }
}
