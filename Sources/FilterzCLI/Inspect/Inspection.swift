import HLS

/// Everything one `filterz inspect` run found: the playlist's parse result and, with `--recursive`, its
/// children and the cross-playlist checks; rendered as text or JSON.
struct Inspection {
    /// How the user named the playlist (path, URL, or `<stdin>`), used in diagnostics.
    var name: String
    var result: ParseResult
    var isRecursive: Bool
    var children: [RecursiveInspection.Child] = []
    var crossChecks: [Diagnostic] = []

    /// Errors everywhere: the playlist's, each child's (a child that cannot be loaded or parsed counts one),
    /// and the cross-playlist checks'. Zero means exit status 0.
    var errorCount: Int {
        var count = result.errors.count + crossChecks.filter { $0.severity == .error }.count
        if result.playlist == nil && count == 0 { count = 1 }
        for child in children {
            switch child.outcome {
            case .failed: count += 1
            case .loaded(let childResult): count += max(childResult.errors.count, childResult.playlist == nil ? 1 : 0)
            }
        }
        return count
    }

    /// The human-readable report: summary, the per-playlist table and cross checks (recursive), diagnostics.
    var textLines: [String] {
        var lines: [String] = []
        if let playlist = result.playlist {
            lines += InspectTextReport.summary(of: playlist, name: name)
        } else {
            lines.append("\(name): not parsed")
        }
        if result.playlist?.multivariant != nil, !children.isEmpty {
            lines.append("")
            lines.append("Playlists (\(children.count))")
            var table = TextTable()
            var problems: [[String]] = []
            for child in children {
                switch child.outcome {
                case .failed(let message):
                    table.append([child.uri, "cannot load: \(message)"])
                    problems.append([])
                case .loaded(let childResult):
                    let columns = childResult.playlist.map(InspectTextReport.oneLineColumns) ?? ["not parsed"]
                    let status =
                        childResult.diagnostics.isEmpty ? "ok" : InspectTextReport.countLine(childResult.diagnostics)
                    table.append([child.uri] + columns + [status])
                    problems.append(childResult.diagnostics.map { "    " + $0.formatted(file: child.location) })
                }
            }
            for (line, childProblems) in zip(table.lines(indent: 2), problems) {
                lines.append(line)
                lines += childProblems
            }
            lines.append("")
            lines.append(
                "Cross-playlist checks: " + (crossChecks.isEmpty ? "ok" : InspectTextReport.countLine(crossChecks)))
            for diagnostic in crossChecks { lines.append("  " + diagnostic.formatted(file: name)) }
        }
        lines.append("")
        lines += InspectTextReport.diagnostics(result.diagnostics, file: name)
        return lines
    }

    /// The facts JSON (corpus schema plus `diagnostics`); recursive runs add `playlists` and
    /// `cross_playlist_diagnostics`.
    var json: JSONValue {
        var members: [(String, JSONValue)]
        if let playlist = result.playlist, case .object(let facts) = playlist.facts(diagnostics: result.diagnostics) {
            members = facts
        } else {
            members = [("kind", .null), ("diagnostics", Self.diagnosticsJSON(result.diagnostics))]
        }
        if isRecursive {
            members.append(
                (
                    "playlists",
                    .array(
                        children.map { child in
                            var entry: [(String, JSONValue)] = [
                                ("uri", .string(child.uri)), ("location", .string(child.location)),
                            ]
                            switch child.outcome {
                            case .failed(let message):
                                entry.append(("error", .string(message)))
                            case .loaded(let childResult):
                                entry.append(
                                    (
                                        "facts",
                                        childResult.playlist?.facts(diagnostics: childResult.diagnostics)
                                            ?? .object([
                                                ("kind", .null),
                                                ("diagnostics", Self.diagnosticsJSON(childResult.diagnostics)),
                                            ])
                                    ))
                            }
                            return .object(entry)
                        })
                ))
            members.append(("cross_playlist_diagnostics", Self.diagnosticsJSON(crossChecks)))
        }
        return .object(members)
    }

    private static func diagnosticsJSON(_ diagnostics: [Diagnostic]) -> JSONValue {
        .array(diagnostics.map(\.jsonValue))
    }
}
