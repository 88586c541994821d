import CLIKit
import HLS
import Inspect
import Media
import StreamAudit

/// `inspect --deep`'s options (`--segments`, `--report`), checked before anything is loaded.
struct DeepOptions {
    /// Nil: every segment.
    var segmentsPerPlaylist: Int?
    var reportPath: String?

    /// Nil without `--deep`; `--segments` or `--report` without it is a usage error.
    init?(_ arguments: ParsedArguments) throws(CLIError) {
        let segments =
            arguments.optionNames.contains(InspectCommandLine.segments.name)
            ? try arguments.get(InspectCommandLine.segments) : nil
        reportPath = try arguments.get(InspectCommandLine.report)
        guard try arguments.get(InspectCommandLine.deep) else {
            if segments != nil { throw .usage("--segments needs --deep") }
            if reportPath != nil { throw .usage("--report needs --deep") }
            return nil
        }
        if let segments, segments != "all" {
            guard let count = Int(segments), count >= 1 else {
                throw .usage("--segments expects 'all' or a whole number of at least 1, got '\(segments)'")
            }
            segmentsPerPlaylist = count
        }
        if reportPath == "" { throw .usage("--report expects a file path") }
    }

    /// Audits `playlist` (a multivariant playlist with its loaded `children`, or one media playlist), drawing a
    /// progress line on `progress` when it is a terminal.
    func run(
        playlist: Playlist, location: String, name: String, children: [RecursiveInspection.Child],
        loader: ResourceLoader,
        progress output: TextOutput
    ) -> AuditReport {
        // Broken segments are findings; libav's own console messages about them would only be noise.
        LibavLogging.setQuiet(true)
        var inspection = DeepInspection(loader: loader, segmentsPerPlaylist: segmentsPerPlaylist)
        inspection.concurrency = 8
        inspection.decryptor = AES128SegmentDecryptor()
        let sources: [DeepInspection.Source]
        switch playlist {
        case .multivariant:
            sources = DeepInspection.sources(children)
        case .media(let media):
            sources = [
                DeepInspection.Source(
                    uri: name, location: location == "-" ? "./" : location, role: .standalone, playlist: media)
            ]
        }
        let report = inspection.run(multivariant: playlist.multivariant, sources: sources) { done, total in
            guard output.isTerminal else { return }
            output.write("\r\u{1B}[Ksegments \(done)/\(total)")
        }
        if output.isTerminal { output.write("\r\u{1B}[K") }
        return report
    }
}
