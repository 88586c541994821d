/// What the playback machine needs from a multivariant playlist: the variant ladder and the alternative
/// renditions (build one with `init(_ playlist: HLS.MultivariantPlaylist)`).
public struct StreamDescription: Sendable, Hashable {
    /// The variants sorted by ascending peak bandwidth; `variants[i].info.index == i`.
    public private(set) var variants: [Variant] {
        didSet { variantInfos = variants.map(\.info) }
    }
    /// The ladder as the quality selector sees it.
    public private(set) var variantInfos: [VariantInfo] = []
    /// Alternative audio and subtitle renditions (EXT-X-MEDIA).
    public var renditions: [Rendition]
    /// The ladder position of the variant listed first (hls.js starts with it).
    public var firstListedIndex = 0

    /// Sorts `variants` by ascending BANDWIDTH (ties by resolution height) and numbers them.
    public init(variants: [Variant], renditions: [Rendition] = []) {
        let sorted = variants.enumerated().sorted { lhs, rhs in
            let left = lhs.element.info
            let right = rhs.element.info
            if left.bandwidthBitsPerSecond != right.bandwidthBitsPerSecond {
                return left.bandwidthBitsPerSecond < right.bandwidthBitsPerSecond
            }
            if (left.height ?? 0) != (right.height ?? 0) { return (left.height ?? 0) < (right.height ?? 0) }
            return lhs.offset < rhs.offset
        }
        self.variants = sorted.enumerated().map { position, entry in
            var variant = entry.element
            variant.info.index = position
            return variant
        }
        self.variantInfos = self.variants.map(\.info)
        self.renditions = renditions
        self.firstListedIndex = sorted.firstIndex { $0.offset == 0 } ?? 0
    }

    /// A stream that is a single media playlist (the URL handed to `load` was not multivariant).
    public static func single(uri: String, timeline: MediaTimeline? = nil) -> StreamDescription {
        let info = VariantInfo(
            index: 0, bandwidthBitsPerSecond: 0, averageBandwidthBitsPerSecond: nil, width: nil, height: nil,
            frameRate: nil, codecs: [])
        return StreamDescription(variants: [Variant(info: info, uri: uri, timeline: timeline)])
    }

    /// The subtitle renditions available to the variant at `variantIndex`.
    public func subtitles(for variantIndex: Int) -> [Rendition] {
        renditions.filter { $0.kind == .subtitles && $0.groupID == variants[variantIndex].subtitlesGroupID }
    }

    /// One variant (EXT-X-STREAM-INF).
    public struct Variant: Sendable, Hashable {
        public var info: VariantInfo
        /// The media playlist URI as written.
        public var uri: String
        public var audioGroupID: String?
        public var subtitlesGroupID: String?
        /// The variant's timeline when already known (a simulator may supply it); otherwise the machine loads
        /// `uri` before taking segments from this variant.
        public var timeline: MediaTimeline?

        public init(
            info: VariantInfo, uri: String, audioGroupID: String? = nil, subtitlesGroupID: String? = nil,
            timeline: MediaTimeline? = nil
        ) {
            self.info = info
            self.uri = uri
            self.audioGroupID = audioGroupID
            self.subtitlesGroupID = subtitlesGroupID
            self.timeline = timeline
        }
    }

    /// An alternative rendition (EXT-X-MEDIA) the player may choose by language.
    public struct Rendition: Sendable, Hashable {
        public enum Kind: String, Sendable, Hashable { case audio, subtitles }
        public var kind: Kind
        public var groupID: String
        public var name: String
        public var language: String?
        public var uri: String?
        public var isDefault: Bool

        public init(kind: Kind, groupID: String, name: String, language: String?, uri: String?, isDefault: Bool) {
            self.kind = kind
            self.groupID = groupID
            self.name = name
            self.language = language
            self.uri = uri
            self.isDefault = isDefault
        }
    }
}
