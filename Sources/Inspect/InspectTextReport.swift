import CLIKit
import HLS
import JSON

/// The human-readable `filterz inspect` report: what the playlist is, then its problems.
public enum InspectTextReport {
    /// The summary of one playlist, `name` being how the user named it (path or URL).
    public static func summary(of playlist: Playlist, name: String) -> [String] {
        switch playlist {
        case .multivariant(let multivariant): summary(of: multivariant, name: name)
        case .media(let media): summary(of: media, name: name)
        }
    }

    public static func summary(of playlist: MultivariantPlaylist, name: String) -> [String] {
        var lines = ["\(name): multivariant playlist, " + versionText(playlist.version)]
        var facts = TextTable()
        facts.append(["independent segments", playlist.independentSegments ? "yes" : "no"])
        if !playlist.defines.isEmpty {
            facts.append(["variables", ListingLimit.names(playlist.defines.map(\.name))])
        }
        if !playlist.sessionKeys.isEmpty {
            facts.append(["session keys", ListingLimit.names(playlist.sessionKeys.map(\.method.rawValue))])
        }
        if !playlist.sessionData.isEmpty {
            facts.append(["session data", ListingLimit.names(playlist.sessionData.map(\.dataID))])
        }
        if let steering = playlist.contentSteering { facts.append(["content steering", steering.serverURI]) }
        lines += facts.lines(indent: 2)

        let variants = playlist.variants.enumerated().sorted {
            ($0.element.bandwidth, $0.offset) < ($1.element.bandwidth, $1.offset)
        }.map(\.element)
        lines.append("")
        lines.append("Variants (\(variants.count), by bandwidth)")
        if !variants.isEmpty {
            var table = TextTable(header: [
                "BANDWIDTH", "AVERAGE", "RESOLUTION", "FPS", "CODECS", "AUDIO", "SUBTITLES", "URI",
            ])
            for variant in variants.prefix(ListingLimit.items) {
                table.append([
                    DisplayFormat.bitrate(variant.bandwidth),
                    variant.averageBandwidth.map(DisplayFormat.bitrate) ?? "-",
                    variant.resolution?.description ?? "-",
                    variant.frameRate.map(DisplayFormat.frameRate) ?? "-",
                    variant.codecs ?? "-",
                    variant.audio ?? "-",
                    variant.subtitles ?? "-",
                    variant.uri,
                ])
            }
            lines += table.lines(indent: 2)
            lines += [ListingLimit.more(variants.count - ListingLimit.items, "variants", indent: 2)].compactMap { $0 }
        }
        if !playlist.iFrameVariants.isEmpty {
            lines.append("")
            lines.append("I-frame variants (\(playlist.iFrameVariants.count))")
            var table = TextTable(header: ["BANDWIDTH", "RESOLUTION", "CODECS", "URI"])
            for variant in playlist.iFrameVariants.sorted(by: { $0.bandwidth < $1.bandwidth }).prefix(
                ListingLimit.items)
            {
                table.append([
                    DisplayFormat.bitrate(variant.bandwidth), variant.resolution?.description ?? "-",
                    variant.codecs ?? "-", variant.uri,
                ])
            }
            lines += table.lines(indent: 2)
            lines += [
                ListingLimit.more(playlist.iFrameVariants.count - ListingLimit.items, "I-frame variants", indent: 2)
            ].compactMap { $0 }
        }

        // Groups in order of first appearance, found through an index (one group per rendition costs no more).
        var groups: [(type: String, id: String, members: [Rendition])] = []
        var groupIndex: [String: Int] = [:]
        for rendition in playlist.renditions {
            let key = rendition.type.rawValue + "\u{0}" + rendition.groupID
            if let index = groupIndex[key] {
                groups[index].members.append(rendition)
            } else {
                groupIndex[key] = groups.count
                groups.append((rendition.type.rawValue, rendition.groupID, [rendition]))
            }
        }
        lines.append("")
        lines.append(
            groups.isEmpty
                ? "Renditions: none"
                : "Renditions (\(playlist.renditions.count) in \(DisplayFormat.count(groups.count, "group")))")
        var listed = 0
        for group in groups where listed < ListingLimit.items {
            lines.append("  \(group.type) \"\(group.id)\"")
            var table = TextTable()
            for rendition in group.members.prefix(ListingLimit.items - listed) {
                let flags = [
                    rendition.isDefault ? "default" : nil, rendition.autoselect ? "autoselect" : nil,
                    rendition.forced ? "forced" : nil,
                ].compactMap { $0 }
                table.append([
                    rendition.language ?? "-", "\"\(rendition.name)\"",
                    flags.isEmpty ? "-" : flags.joined(separator: ","),
                    rendition.uri ?? rendition.instreamID ?? "(in variant)",
                ])
            }
            listed += table.rows.count
            lines += table.lines(indent: 4)
        }
        lines += [ListingLimit.more(playlist.renditions.count - listed, "renditions", indent: 2)].compactMap { $0 }
        return lines
    }

    public static func summary(of playlist: MediaPlaylist, name: String) -> [String] {
        var lines = ["\(name): media playlist, " + versionText(playlist.version)]
        let stats = playlist.statistics
        var table = TextTable()
        var type: [String] = []
        if let playlistType = playlist.playlistType { type.append(playlistType.rawValue) }
        type.append(playlist.endList ? "ended (EXT-X-ENDLIST)" : "live (no EXT-X-ENDLIST)")
        if playlist.iFramesOnly { type.append("I-frames only") }
        table.append(["type", type.joined(separator: ", ")])
        table.append(["segments", String(stats.segmentCount)])
        if stats.segmentCount > 0 {
            table.append([
                "duration",
                "\(DisplayFormat.seconds(stats.totalSeconds)) total; min \(DisplayFormat.seconds(stats.minimumSeconds)), "
                    + "avg \(DisplayFormat.seconds(stats.averageSeconds)), max \(DisplayFormat.seconds(stats.maximumSeconds))",
            ])
        }
        table.append(["target duration", playlist.targetDuration.map { "\($0) s" } ?? "missing"])
        table.append(["media sequence", String(playlist.firstMediaSequenceNumber)])
        table.append([
            "discontinuities",
            "\(stats.discontinuityCount) (discontinuity sequence \(playlist.discontinuitySequence ?? 0))",
        ])
        if let totalBytes = stats.totalBytes {
            table.append([
                "byte ranges",
                "\(DisplayFormat.count(stats.byteRangeCount, "segment")), \(DisplayFormat.bytes(totalBytes)) total",
            ])
        } else {
            table.append(["byte ranges", "none"])
        }
        table.append([
            "keys", stats.keyCount == 0 ? "none" : "\(stats.keyCount) (\(stats.keyMethods.joined(separator: ", ")))",
        ])
        if stats.mapCount > 0 { table.append(["init sections", String(stats.mapCount)]) }
        if let partInf = playlist.partInf {
            table.append(["parts", "\(stats.partCount) (PART-TARGET \(DisplayFormat.seconds(partInf.partTarget)))"])
        } else {
            table.append(["parts", stats.partCount == 0 ? "none" : String(stats.partCount)])
        }
        if stats.gapCount > 0 { table.append(["gaps", String(stats.gapCount)]) }
        if let skip = playlist.skip { table.append(["skipped", "\(skip.skippedSegments) segments (delta update)"]) }
        lines += table.lines(indent: 2)
        return lines
    }

    /// Columns for one line of the `--recursive` list: kind and version, segments, durations, target, state.
    public static func oneLineColumns(_ playlist: Playlist) -> [String] {
        switch playlist {
        case .multivariant(let multivariant):
            return [
                "multivariant \(shortVersion(multivariant.version))",
                DisplayFormat.count(multivariant.variants.count, "variant"), "", "", "",
            ]
        case .media(let media):
            let stats = media.statistics
            let durations =
                stats.segmentCount == 0
                ? ""
                : "\(DisplayFormat.seconds(stats.totalSeconds)) (min \(fixedNumber(stats.minimumSeconds, digits: 3)), "
                    + "avg \(fixedNumber(stats.averageSeconds, digits: 3)), max \(fixedNumber(stats.maximumSeconds, digits: 3)))"
            var state = media.endList ? "ended" : "live"
            if stats.discontinuityCount > 0 {
                state +=
                    ", " + DisplayFormat.count(stats.discontinuityCount, "discontinuit", plural: "ies", singular: "y")
            }
            return [
                "media \(shortVersion(media.version))", DisplayFormat.count(stats.segmentCount, "segment"), durations,
                "target " + (media.targetDuration.map { "\($0) s" } ?? "missing"), state,
            ]
        }
    }

    /// The diagnostics block: a count line, then one compiler-style line per diagnostic.
    public static func diagnostics(_ diagnostics: [Diagnostic], file: String) -> [String] {
        guard !diagnostics.isEmpty else { return ["No problems found."] }
        return [countLine(diagnostics)] + listed(diagnostics, file: file, indent: 2, limit: ListingLimit.items)
    }

    /// One line per diagnostic up to `limit`, then `… and N more problems`.
    public static func listed(_ diagnostics: [Diagnostic], file: String, indent: Int, limit: Int) -> [String] {
        let prefix = String(repeating: " ", count: indent)
        return diagnostics.prefix(limit).map { prefix + $0.formatted(file: file) }
            + [ListingLimit.more(diagnostics.count - limit, "problems", indent: indent)].compactMap { $0 }
    }

    /// `2 errors, 1 warning` (notes are counted only when there is nothing else).
    public static func countLine(_ diagnostics: [Diagnostic]) -> String {
        let errors = diagnostics.filter { $0.severity == .error }.count
        let warnings = diagnostics.filter { $0.severity == .warning }.count
        let notes = diagnostics.filter { $0.severity == .note }.count
        var parts: [String] = []
        if errors > 0 { parts.append(DisplayFormat.count(errors, "error")) }
        if warnings > 0 { parts.append(DisplayFormat.count(warnings, "warning")) }
        if notes > 0 { parts.append(DisplayFormat.count(notes, "note")) }
        return parts.isEmpty ? "No problems found." : parts.joined(separator: ", ")
    }

    private static func versionText(_ version: Int?) -> String {
        version.map { "version \($0)" } ?? "no EXT-X-VERSION (version 1)"
    }

    private static func shortVersion(_ version: Int?) -> String { "v\(version ?? 1)" }
}
