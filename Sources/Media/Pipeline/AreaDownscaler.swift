/// Shrinks one 8-bit picture plane by area averaging: each output sample is the mean of the source area it
/// covers, weighted by overlap (a 2 × 2 block for 2:1, ¾ + ¼ of neighbours for 4:3). It is how the lower
/// renditions are made from the 720p YUV planes the encoders share, instead of libswscale: no context per
/// size, written straight into the encoder's frame, and the two ratios of the default ladder (4:3 and 2:1)
/// run as short fixed loops.
///
/// Fixed point: the weights of each axis are in 1/256 and sum to exactly 256; the vertical pass keeps its
/// sums (≤ 255 · 256) in a row of `UInt16`, the horizontal pass rounds once at the end, so the result is
/// ⌊Σ wx · wy · sample / 2¹⁶ + ½⌋ — what `reference(…)` computes sample by sample.
struct AreaDownscaler: Sendable {
    /// The source samples one output sample of an axis reads, and their weights (in 1/256, summing to 256).
    struct Taps: Sendable, Equatable {
        /// First source index of each output index (the taps are consecutive).
        var first: [Int]
        /// `count` weights per output index, zero past the samples it covers.
        var weights: [UInt16]
        var count: Int

        /// Area weights from `source` samples to `destination` (≤ `source`) samples.
        init(source: Int, destination: Int) {
            precondition(destination >= 1 && destination <= source)
            // In units of 1/destination of a source sample, output i covers [i · source, (i + 1) · source).
            var spans: [(first: Int, overlaps: [Int])] = []
            for index in 0..<destination {
                let start = index * source, end = start + source
                let firstSample = start / destination, lastSample = (end - 1) / destination
                let overlaps = (firstSample...lastSample).map { sample in
                    min(end, (sample + 1) * destination) - max(start, sample * destination)
                }
                spans.append((firstSample, overlaps))
            }
            count = spans.map(\.overlaps.count).max() ?? 1
            first = []
            weights = []
            for (firstSample, overlaps) in spans {
                let shift = max(0, firstSample + count - source)  // keep the taps inside the source
                first.append(firstSample - shift)
                var row = [UInt16](repeating: 0, count: count)
                for (offset, weight) in Self.quantised(overlaps, total: source).enumerated() {
                    row[shift + offset] = weight
                }
                weights += row
            }
        }

        /// Overlaps (summing to `total`) as weights in 1/256 that sum to exactly 256: each rounded down, and
        /// the units still missing given to the largest remainders.
        private static func quantised(_ overlaps: [Int], total: Int) -> [UInt16] {
            var weights = overlaps.map { $0 * 256 / total }
            let remainders = overlaps.map { $0 * 256 % total }
            let missing = 256 - weights.reduce(0, +)
            for index in remainders.indices.sorted(by: { remainders[$0] > remainders[$1] }).prefix(missing) {
                weights[index] += 1
            }
            return weights.map { UInt16($0) }
        }
    }

    let sourceWidth: Int, sourceHeight: Int
    let destinationWidth: Int, destinationHeight: Int
    let horizontal: Taps, vertical: Taps

    /// A downscaler between these sizes, or nil if either axis would grow.
    init?(from sourceWidth: Int, _ sourceHeight: Int, to destinationWidth: Int, _ destinationHeight: Int) {
        guard destinationWidth >= 1, destinationHeight >= 1, destinationWidth <= sourceWidth,
              destinationHeight <= sourceHeight
        else { return nil }
        self.sourceWidth = sourceWidth
        self.sourceHeight = sourceHeight
        self.destinationWidth = destinationWidth
        self.destinationHeight = destinationHeight
        horizontal = Taps(source: sourceWidth, destination: destinationWidth)
        vertical = Taps(source: sourceHeight, destination: destinationHeight)
    }

    /// Scales a plane of the source size (rows `sourceStride` bytes apart) into one of the destination size.
    /// `rowSums` must hold `sourceWidth` values (scratch, reused between calls).
    func scale(
        _ source: UnsafePointer<UInt8>, sourceStride: Int, into destination: UnsafeMutablePointer<UInt8>,
        destinationStride: Int, rowSums: UnsafeMutablePointer<UInt16>
    ) {
        let width = sourceWidth
        for y in 0..<destinationHeight {
            // Vertical: the weighted sum of the source rows this output row covers, for every column.
            let firstRow = vertical.first[y]
            for tap in 0..<vertical.count {
                let weight = vertical.weights[y * vertical.count + tap]
                let row = source + (firstRow + tap) * sourceStride
                if tap == 0 {
                    for x in 0..<width { rowSums[x] = weight &* UInt16(row[x]) }
                } else if weight != 0 {
                    for x in 0..<width { rowSums[x] = rowSums[x] &+ weight &* UInt16(row[x]) }
                }
            }
            scaleRow(rowSums, into: destination + y * destinationStride)
        }
    }

    /// Horizontal: one row of vertical sums → one output row.
    private func scaleRow(_ sums: UnsafeMutablePointer<UInt16>, into output: UnsafeMutablePointer<UInt8>) {
        @inline(__always) func round(_ total: UInt32) -> UInt8 { UInt8(truncatingIfNeeded: (total &+ 32_768) &>> 16) }
        if sourceWidth == 2 * destinationWidth {
            // 2:1, weights ½ ½.
            for x in 0..<destinationWidth {
                output[x] = round(128 &* (UInt32(sums[2 * x]) &+ UInt32(sums[2 * x + 1])))
            }
        } else if 3 * sourceWidth == 4 * destinationWidth {
            // 4:3, every 4 sums give 3 outputs with weights ¾ ¼, ½ ½, ¼ ¾: 4 groups at a time in SIMD lanes.
            let groups = destinationWidth / 3
            var group = 0
            while group + 4 <= groups {
                let block = UnsafeRawPointer(sums + 4 * group).loadUnaligned(as: SIMD16<UInt16>.self)
                let even = block.evenHalf, odd = block.oddHalf
                let a = SIMD4<UInt32>(truncatingIfNeeded: even.evenHalf), c = SIMD4<UInt32>(truncatingIfNeeded: even.oddHalf)
                let b = SIMD4<UInt32>(truncatingIfNeeded: odd.evenHalf), d = SIMD4<UInt32>(truncatingIfNeeded: odd.oddHalf)
                let half = SIMD4<UInt32>(repeating: 32_768)
                let first = SIMD4<UInt8>(truncatingIfNeeded: (a &* 192 &+ b &* 64 &+ half) &>> 16)
                let second = SIMD4<UInt8>(truncatingIfNeeded: ((b &+ c) &* 128 &+ half) &>> 16)
                let third = SIMD4<UInt8>(truncatingIfNeeded: (c &* 64 &+ d &* 192 &+ half) &>> 16)
                let out = output + 3 * group
                for lane in 0..<4 {
                    out[3 * lane] = first[lane]
                    out[3 * lane + 1] = second[lane]
                    out[3 * lane + 2] = third[lane]
                }
                group += 4
            }
            for group in group..<groups {
                let a = UInt32(sums[4 * group]), b = UInt32(sums[4 * group + 1])
                let c = UInt32(sums[4 * group + 2]), d = UInt32(sums[4 * group + 3])
                output[3 * group] = round(192 &* a &+ 64 &* b)
                output[3 * group + 1] = round(128 &* (b &+ c))
                output[3 * group + 2] = round(64 &* c &+ 192 &* d)
            }
        } else {
            let count = horizontal.count
            horizontal.weights.withUnsafeBufferPointer { weights in
                for x in 0..<destinationWidth {
                    let taps = sums + horizontal.first[x]
                    var total: UInt32 = 0
                    for tap in 0..<count { total &+= UInt32(weights[x * count + tap]) &* UInt32(taps[tap]) }
                    output[x] = round(total)
                }
            }
        }
    }

    /// The same result computed directly, sample by sample (Σ over the covered source area of
    /// wx · wy · sample, rounded once): what `scale` must equal.
    func reference(_ source: [UInt8], sourceStride: Int) -> [UInt8] {
        var output = [UInt8](repeating: 0, count: destinationWidth * destinationHeight)
        for y in 0..<destinationHeight {
            for x in 0..<destinationWidth {
                var total = 0
                for ty in 0..<vertical.count {
                    for tx in 0..<horizontal.count {
                        let weight = Int(vertical.weights[y * vertical.count + ty]) * Int(horizontal.weights[x * horizontal.count + tx])
                        total += weight * Int(source[(vertical.first[y] + ty) * sourceStride + horizontal.first[x] + tx])
                    }
                }
                output[y * destinationWidth + x] = UInt8((total + 32_768) >> 16)
            }
        }
        return output
    }
}
