import CLIKit
import HLS
import JSON
import Parallel

/// Everything one `filterz inspect` run found: the playlist's parse result and, with `--recursive`, its
/// children and the cross-playlist checks; rendered as text or JSON.
public struct Inspection {
    /// How the user named the playlist (path, URL, or `<stdin>`), used in diagnostics.
    public var name: String
    public var result: ParseResult
    public var isRecursive: Bool
    public var children: [RecursiveInspection.Child] = []
    public var crossChecks: [Diagnostic] = []

    public init(name: String, result: ParseResult, isRecursive: Bool) {
        self.name = name
        self.result = result
        self.isRecursive = isRecursive
    }

    /// Parses and validates `bytes`, the playlist at `location` (a path, a URL, or `-` for standard input).
    public init(location: String, bytes: [UInt8], strict: Bool, recursive: Bool) {
        let result = parseAndValidate(
            bytes,
            options: ParseOptions(
                strict: strict, playlistURI: location == "-" ? nil : location, parallel: ParseOptions.twoThreads))
        self.init(name: location == "-" ? "<stdin>" : location, result: result, isRecursive: recursive)
    }

    /// `init(location:bytes:strict:recursive:)`, then, when `recursive` and the playlist is a multivariant one,
    /// every playlist it references loaded through `loader` and checked, and the checks across them: what
    /// `filterz inspect` does, whichever binary and loader run it.
    public init(location: String, bytes: [UInt8], strict: Bool, recursive: Bool, loader: any PlaylistLoading) {
        self.init(location: location, bytes: bytes, strict: strict, recursive: recursive)
        guard recursive, let multivariant = result.playlist?.multivariant else { return }
        children = RecursiveInspection(loader: loader, strict: strict).run(
            parent: multivariant, parentLocation: location)
        crossChecks = RecursiveInspection.crossChecks(children)
    }

    /// Errors everywhere: the playlist's, each child's (a child that cannot be loaded or parsed counts one),
    /// and the cross-playlist checks'. Zero means exit status 0.
    public var errorCount: Int {
        var count = result.errors.count + crossChecks.filter { $0.severity == .error }.count
        if result.playlist == nil && count == 0 { count = 1 }
        for child in children {
            switch child.outcome {
            case .failed: count += 1
            case .notLoaded: continue
            case .loaded(let childResult): count += max(childResult.errors.count, childResult.playlist == nil ? 1 : 0)
            }
        }
        // Children left unloaded were not checked: the run cannot pass for a complete one.
        if children.contains(where: { if case .notLoaded = $0.outcome { true } else { false } }) { count += 1 }
        return count
    }

    /// The human-readable report: summary, the per-playlist table and cross checks (recursive), diagnostics.
    public var textLines: [String] {
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
            // A playlist named by several references is listed once in full; the others point back to it.
            var firstURI: [String: String] = [:]
            for child in children.prefix(ListingLimit.items) {
                switch child.outcome {
                case .failed(let message):
                    table.append([child.uri, "cannot load: \(message)"])
                    problems.append([])
                case .notLoaded:
                    table.append([child.uri, "not loaded (at most \(ListingLimit.childPlaylists) playlists are)"])
                    problems.append([])
                case .loaded(let childResult):
                    let columns = childResult.playlist.map(InspectTextReport.oneLineColumns) ?? ["not parsed"]
                    let status =
                        childResult.diagnostics.isEmpty ? "ok" : InspectTextReport.countLine(childResult.diagnostics)
                    table.append([child.uri] + columns + [status])
                    if let first = firstURI[child.location] {
                        problems.append(
                            childResult.diagnostics.isEmpty ? [] : ["    (the problems of \(first), above)"])
                    } else {
                        firstURI[child.location] = child.uri
                        problems.append(
                            InspectTextReport.listed(
                                childResult.diagnostics, file: child.location, indent: 4,
                                limit: ListingLimit.childProblems))
                    }
                }
            }
            for (line, childProblems) in zip(table.lines(indent: 2), problems) {
                lines.append(line)
                lines += childProblems
            }
            lines += [ListingLimit.more(children.count - ListingLimit.items, "playlists", indent: 2)].compactMap { $0 }
            let unloaded = children.filter { if case .notLoaded = $0.outcome { true } else { false } }.count
            if unloaded > 0 {
                lines.append(
                    "  \(DisplayFormat.count(unloaded, "playlist")) not loaded: --recursive loads at most "
                        + "\(ListingLimit.childPlaylists) (an error: they were not checked)")
            }
            lines.append("")
            lines.append(
                "Cross-playlist checks: " + (crossChecks.isEmpty ? "ok" : InspectTextReport.countLine(crossChecks)))
            lines += InspectTextReport.listed(crossChecks, file: name, indent: 2, limit: ListingLimit.items)
        }
        lines.append("")
        lines += InspectTextReport.diagnostics(result.diagnostics, file: name)
        return lines
    }

    /// The facts JSON (`Playlist.facts`: the corpus schema, the LL-HLS and key lists, `lenient`, `diagnostics`);
    /// recursive runs add `playlists` and `cross_playlist_diagnostics`.
    public var json: JSONValue {
        var members: [(String, JSONValue)]
        if let playlist = result.playlist,
            case .object(let facts) = playlist.facts(diagnostics: result.diagnostics, maximumItems: ListingLimit.items)
        {
            members = facts
        } else {
            members = Self.unparsedFacts(result.diagnostics, limit: ListingLimit.items)
        }
        guard isRecursive else { return .object(members) }
        var budget = ListingLimit.childFactItems
        let entries: [JSONValue] = children.prefix(ListingLimit.items).map { child in
            var entry: [(String, JSONValue)] = [("uri", .string(child.uri)), ("location", .string(child.location))]
            switch child.outcome {
            case .failed(let message):
                entry.append(("error", .string(message)))
            case .notLoaded:
                entry.append(("error", .string("not loaded: at most \(ListingLimit.childPlaylists) playlists are")))
            case .loaded(let childResult):
                let limit = min(ListingLimit.items, budget)
                let facts =
                    childResult.playlist?.facts(diagnostics: childResult.diagnostics, maximumItems: limit)
                    ?? .object(Self.unparsedFacts(childResult.diagnostics, limit: limit))
                budget -= Self.listedItems(facts)
                entry.append(("facts", facts))
            }
            return .object(entry)
        }
        members.append(("playlists", .array(entries)))
        members.append(("cross_playlist_diagnostics", Self.diagnosticsJSON(crossChecks, limit: ListingLimit.items)))
        var truncated: [(String, JSONValue)] = []
        if case .object(let existing)? = members.first(where: { $0.0 == "truncated" })?.1 { truncated = existing }
        members.removeAll { $0.0 == "truncated" }
        if children.count > ListingLimit.items { truncated.append(("playlists", .integer(children.count))) }
        if crossChecks.count > ListingLimit.items {
            truncated.append(("cross_playlist_diagnostics", .integer(crossChecks.count)))
        }
        if !truncated.isEmpty { members.append(("truncated", .object(truncated))) }
        return .object(members)
    }

    /// Items in the lists of one facts object (what it spends of the children's budget).
    private static func listedItems(_ facts: JSONValue) -> Int {
        guard case .object(let members) = facts else { return 0 }
        return members.reduce(0) { sum, member in
            if case .array(let items) = member.1, member.0 != "truncated" { sum + items.count } else { sum }
        }
    }

    private static func diagnosticsJSON(_ diagnostics: [Diagnostic], limit: Int) -> JSONValue {
        .array(diagnostics.prefix(limit).map(\.jsonValue))
    }

    /// `{"kind": null, "diagnostics": […]}` for a playlist that did not parse, with `truncated` when cut.
    private static func unparsedFacts(_ diagnostics: [Diagnostic], limit: Int) -> [(String, JSONValue)] {
        var members: [(String, JSONValue)] = [
            ("kind", .null), ("diagnostics", diagnosticsJSON(diagnostics, limit: limit)),
        ]
        if diagnostics.count > limit {
            members.append(("truncated", .object([("diagnostics", .integer(diagnostics.count))])))
        }
        return members
    }
}

extension ParseOptions {
    /// Two threads for the parser: a large media playlist is read in halves at once.
    static let twoThreads = ParallelPair(run: Alongside.run)
}
