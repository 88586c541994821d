/// One rung of a bit-rate ladder: a picture size and a target video bit rate.
public struct LadderRung: Hashable, Sendable, CustomStringConvertible {
    public var width: Int
    public var height: Int
    /// Target (and maximum) video bit rate in bits per second.
    public var bitsPerSecond: Int

    public init(width: Int, height: Int, bitsPerSecond: Int) {
        self.width = width
        self.height = height
        self.bitsPerSecond = bitsPerSecond
    }

    /// A short name for folders and logs: the short side with a `p`, e.g. `720p` (also for portrait 720×1280).
    public var name: String { "\(min(width, height))p" }

    /// The `--ladder` spelling, e.g. `1280x720@3000k`.
    public var description: String {
        bitsPerSecond % 1000 == 0
            ? "\(width)x\(height)@\(bitsPerSecond / 1000)k" : "\(width)x\(height)@\(bitsPerSecond)"
    }
}

/// An adaptive bit-rate ladder: the renditions to encode, highest bit rate first.
///
///     let ladder = try Ladder.parse("1920x1080@6000k,1280x720@3000k")
///     let fitted = ladder.fitted(toSourceWidth: 720, height: 1280)   // portrait: 720×1280 @ 3000k only
public struct Ladder: Hashable, Sendable {
    public var renditions: [LadderRung]

    public init(_ renditions: [LadderRung]) {
        self.renditions = renditions.sorted { ($0.bitsPerSecond, $0.width) > ($1.bitsPerSecond, $1.width) }
    }

    /// 1280×720 @ 3000k, 960×540 @ 2000k, 640×360 @ 730k (close to Apple's authoring recommendations).
    public static let standard = Ladder([
        LadderRung(width: 1280, height: 720, bitsPerSecond: 3_000_000),
        LadderRung(width: 960, height: 540, bitsPerSecond: 2_000_000),
        LadderRung(width: 640, height: 360, bitsPerSecond: 730_000),
    ])

    /// The largest picture side we accept (H.264 level 6.2 allows 8192).
    public static let maximumSide = 8192
    /// The bit-rate bounds we accept, in bits per second.
    public static let bitRateRange = 16_000...200_000_000

    /// Parses `WIDTHxHEIGHT@RATE[,…]`; RATE is bits per second with an optional `k` or `M` suffix.
    /// - Throws: `LadderError` naming the rung at fault.
    public static func parse(_ text: String) throws(LadderError) -> Ladder {
        let rungs = text.split(separator: ",", omittingEmptySubsequences: false).map {
            $0.trimmingSpaces()
        }
        if rungs.isEmpty || rungs == [""] { throw .empty }
        var renditions: [LadderRung] = []
        for rung in rungs {
            let rendition = try parseRung(rung)
            if renditions.contains(where: { $0.width == rendition.width && $0.height == rendition.height }) {
                throw .duplicateSize(rung)
            }
            renditions.append(rendition)
        }
        return Ladder(renditions)
    }

    private static func parseRung(_ rung: String) throws(LadderError) -> LadderRung {
        let parts = rung.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2 else { throw .malformed(rung) }
        let size = parts[0].lowercased().split(separator: "x", omittingEmptySubsequences: false)
        guard size.count == 2, let width = Int(size[0]), let height = Int(size[1]) else {
            throw .malformed(rung)
        }
        guard (16...maximumSide).contains(width), (16...maximumSide).contains(height) else {
            throw .sizeOutOfRange(rung)
        }
        guard width % 2 == 0, height % 2 == 0 else { throw .oddSize(rung) }
        var rate = Substring(parts[1])
        var multiplier = 1
        if rate.hasSuffix("k") || rate.hasSuffix("K") {
            multiplier = 1000
            rate = rate.dropLast()
        } else if rate.hasSuffix("M") || rate.hasSuffix("m") {
            multiplier = 1_000_000
            rate = rate.dropLast()
        }
        guard let amount = Int(rate) else { throw .malformed(rung) }
        let (bits, overflow) = amount.multipliedReportingOverflow(by: multiplier)
        guard !overflow, bitRateRange.contains(bits) else { throw .bitRateOutOfRange(rung) }
        return LadderRung(width: width, height: height, bitsPerSecond: bits)
    }

    /// The renditions to encode for a source picture: each rung keeps its short side but takes the
    /// source's aspect ratio and orientation (a portrait source gives portrait renditions), sizes are
    /// rounded to even numbers (4:2:0 chroma), and no rendition is larger than the source.
    ///
    /// Rungs larger than the source are dropped; when none fits, one rendition at the source size is
    /// kept with the smallest rung's bit rate scaled by pixel count.
    public func fitted(toSourceWidth sourceWidth: Int, height sourceHeight: Int) -> Ladder {
        let sourceShort = min(sourceWidth, sourceHeight)
        let sourceLong = max(sourceWidth, sourceHeight)
        let portrait = sourceHeight > sourceWidth
        func sized(short: Int) -> (width: Int, height: Int) {
            let long = Self.even(Double(sourceLong) * Double(short) / Double(sourceShort), atMost: sourceLong)
            let shortEven = Self.even(Double(short), atMost: sourceShort)
            return portrait ? (shortEven, long) : (long, shortEven)
        }
        var result: [LadderRung] = []
        for rung in renditions where min(rung.width, rung.height) <= sourceShort {
            let size = sized(short: min(rung.width, rung.height))
            if result.contains(where: { $0.width == size.width && $0.height == size.height }) { continue }
            result.append(LadderRung(width: size.width, height: size.height, bitsPerSecond: rung.bitsPerSecond))
        }
        if result.isEmpty, let smallest = renditions.min(by: { $0.width * $0.height < $1.width * $1.height }) {
            let size = sized(short: sourceShort)
            let scale = Double(size.width * size.height) / Double(smallest.width * smallest.height)
            let bits = max(Self.bitRateRange.lowerBound, Int(Double(smallest.bitsPerSecond) * scale))
            result.append(LadderRung(width: size.width, height: size.height, bitsPerSecond: bits))
        }
        return Ladder(result)
    }

    /// Rounds to the nearest even number that is not above `limit` (an odd source side), at least 2.
    private static func even(_ value: Double, atMost limit: Int) -> Int {
        max(2, min(Int((value / 2).rounded()) * 2, limit / 2 * 2))
    }
}

/// Why a `--ladder` value was rejected.
public enum LadderError: Error, Equatable, Sendable, CustomStringConvertible {
    case empty
    case malformed(String)
    case sizeOutOfRange(String)
    case oddSize(String)
    case bitRateOutOfRange(String)
    case duplicateSize(String)

    public var description: String {
        switch self {
        case .empty: "the ladder is empty; expected WIDTHxHEIGHT@RATE[,…], e.g. 1280x720@3000k"
        case .malformed(let rung): "'\(rung)' is not WIDTHxHEIGHT@RATE (e.g. 1280x720@3000k)"
        case .sizeOutOfRange(let rung): "'\(rung)': width and height must be 16…\(Ladder.maximumSide)"
        case .oddSize(let rung): "'\(rung)': width and height must be even (4:2:0 chroma)"
        case .bitRateOutOfRange(let rung): "'\(rung)': the bit rate must be 16k…200M bits per second"
        case .duplicateSize(let rung): "'\(rung)': the ladder already has a rendition of that size"
        }
    }
}

extension Substring {
    fileprivate func trimmingSpaces() -> String {
        String(drop(while: { $0 == " " }).reversed().drop(while: { $0 == " " }).reversed())
    }
}
