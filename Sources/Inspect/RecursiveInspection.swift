import CLIKit
import HLS
import Parallel

/// `inspect --recursive`: loads every media playlist a multivariant playlist references (variants, I-frame
/// variants, renditions with a URI), concurrently, relative to the parent's URL or folder, and checks them
/// one by one and against each other.
public struct RecursiveInspection {
    /// One referenced playlist: where it was found and what loading and parsing it gave.
    public struct Child: Sendable {
        public var reference: ReferencedPlaylist.Reference
        /// The URI as written in the parent.
        public var uri: String
        /// The URI resolved against the parent's location (a URL, or a file path).
        public var location: String
        public var outcome: Outcome
    }

    public enum Outcome: Sendable {
        case loaded(ParseResult)
        case failed(String)
        /// Beyond the first `ListingLimit.childPlaylists` distinct playlists: neither loaded nor checked.
        case notLoaded
    }

    public var loader: any PlaylistLoading
    public var strict: Bool
    /// How many playlists load at the same time.
    public var maximumConcurrentLoads = 8

    public init(loader: any PlaylistLoading, strict: Bool) {
        self.loader = loader
        self.strict = strict
    }

    /// Loads and checks every playlist `parent` references. `parentLocation` is the URL or path it came from.
    public func run(parent: MultivariantPlaylist, parentLocation: String) -> [Child] {
        var references: [(ReferencedPlaylist.Reference, String)] = []
        for variant in parent.variants { references.append((.variant(variant), variant.uri)) }
        for variant in parent.iFrameVariants { references.append((.iFrameVariant(variant), variant.uri)) }
        for rendition in parent.renditions {
            if let uri = rendition.uri { references.append((.rendition(rendition), uri)) }
        }
        // Variables of the parent, for EXT-X-DEFINE IMPORT in the children.
        var variables: [String: String] = [:]
        for define in parent.defines {
            if let value = define.value { variables[define.name] = value }
        }
        let base = parentLocation == "-" ? "./" : parentLocation
        let locations = references.map { URIReference.resolve($0.1, against: base) }
        // A playlist named twice (a variant URI that is also a rendition URI) is loaded once.
        var seen: Set<String> = []
        let unique = locations.filter { seen.insert($0).inserted }
        let outcomes = load(
            Array(unique.prefix(ListingLimit.childPlaylists)), namedBy: parentLocation, variables: variables)
        return zip(references, locations).map { pair, location in
            Child(reference: pair.0, uri: pair.1, location: location, outcome: outcomes[location] ?? .notLoaded)
        }
    }

    /// Loads and checks each location, up to `maximumConcurrentLoads` at once (loading is mostly waiting on the
    /// network, so more than the CPU count), each on a thread of its own.
    private func load(_ locations: [String], namedBy parentLocation: String, variables: [String: String])
        -> [String: Outcome]
    {
        let loader = self.loader
        let strict = self.strict
        let outcomes = BoundedWorkers.run(count: locations.count, concurrency: maximumConcurrentLoads) {
            index -> Outcome in
            let location = locations[index]
            do throws(CLIError) {
                let bytes = try loader.load(location, namedBy: parentLocation)
                let options = ParseOptions(
                    strict: strict, playlistURI: location, importedVariables: variables,
                    parallel: ParseOptions.twoThreads)
                return .loaded(parseAndValidate(bytes, options: options))
            } catch {
                return .failed(error.description)
            }
        }
        return Dictionary(zip(locations, outcomes)) { first, _ in first }
    }

    /// The cross-playlist checks over the children that loaded as media playlists.
    public static func crossChecks(_ children: [Child]) -> [Diagnostic] {
        let loaded: [ReferencedPlaylist] = children.compactMap {
            guard case .loaded(let result) = $0.outcome, let media = result.playlist?.media else { return nil }
            return ReferencedPlaylist(reference: $0.reference, playlist: media)
        }
        return VariantAlignment.check(loaded)
    }
}
