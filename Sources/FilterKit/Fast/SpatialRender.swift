import Parallel

/// The fast path for presets with spatial steps, on one frame: the rows stream through the steps band by band
/// (one band per core) — colour step (inside the guided filter when there is noise reduction) → sharpen
/// (`SharpenRows`) → the blur's horizontal passes (`HorizontalBlur`) — into a buffer of horizontally blurred rows;
/// the blur's vertical passes then run strip by strip (`Planar.verticalBlur`), each following the rows as the bands
/// write them (`RowProgress`), and hand each finished row of a strip to the vignette and bytes (`ByteWriter`).
/// Without a blur the finished rows go straight to bytes.
///
/// With a blur, a frame of more than `FilterRenderer.sectionPixels` pixels is done in sections of rows
/// (`BlurSections`), one after another, so the buffer of blurred rows holds one section and its margins instead of
/// the whole frame: a 48-megapixel photo needs about 60 MB there instead of 576 MB. The rows a section shares with
/// the next are kept, not computed again, and each section's vertical passes start where the whole frame's would
/// restart their running sums, so the bytes are those of one section covering the frame.
struct SpatialRender {
    let rows: SourceRows
    let output: UnsafeMutablePointer<UInt8>
    let outputStride: Int
    let renderer: FilterRenderer
    let byteTable: ExactByteTable?

    var width: Int { rows.width }
    var height: Int { rows.height }
    var values: FilterValues { renderer.values }

    func run() {
        let threads = renderer.threads, pool = renderer.scratch, width = width, height = height
        let blurs = values.blur > 0
        let frame = Planar(width: width, height: height)
        let blurBox = SpatialSteps.ExtendedBox(sigma: values.blur)
        // Without a blur the row stage writes the bytes, so the source alpha is scanned first. With one, the row
        // stage notes, as it fetches each source row (still in cache), whether all its pixels have the first
        // pixel's alpha, instead of a pass over the source of its own; the byte store writes that alpha as a
        // constant on those rows.
        let firstAlpha = rows.bytes[3]
        let rowHasFirstAlpha = blurs ? pool.take(Bool.self, count: height) : nil
        defer { if let rowHasFirstAlpha { pool.give(rowHasFirstAlpha, count: height) } }
        let writer = ByteWriter(
            source: rows, alpha: blurs ? firstAlpha : rows.uniformAlpha(),
            rowHasAlpha: rowHasFirstAlpha.map { UnsafePointer($0) }, output: output,
            outputStride: outputStride, vignette: values.vignette, pool: pool)
        defer { writer.release(to: pool) }
        let context = RowContext(
            firstAlpha: firstAlpha, rowHasFirstAlpha: rowHasFirstAlpha, writer: writer,
            frame: frame, blurBox: blurBox)
        guard blurs else {
            let bands = RowBands.ranges(count: height, threads: threads.width, bandsPerThread: 1)
            RowBands.jobs(bands.count, threads: threads) {
                rowStage(bands[$0], index: $0, context, blurred: nil, progress: nil)
            }
            return
        }
        let sections = BlurSections(
            width: width, height: height, box: blurBox, passes: SpatialSteps.blurPasses,
            pixelsPerSection: renderer.sectionPixels)
        let rowFloats = PackedRGB.rowFloats(width), count = rowFloats * sections.largestWindow
        let buffer = pool.take(Float.self, count: count)
        defer { pool.give(buffer, count: count) }
        var computed = 0..<0  // the image rows `buffer` holds, from its first row on
        for section in sections.sections {
            let window = section.window
            // Rows the previous section computed and this one needs move to the front of the buffer.
            let kept =
                max(
                    window.lowerBound, computed.lowerBound)..<max(
                    window.lowerBound, min(computed.upperBound, window.upperBound))
            if !kept.isEmpty {
                UnsafeMutableRawPointer(buffer + (kept.lowerBound - window.lowerBound) * rowFloats)
                    .copyMemory(
                        from: buffer + (kept.lowerBound - computed.lowerBound) * rowFloats,
                        byteCount: kept.count * rowFloats * MemoryLayout<Float>.stride)
            }
            let fresh = max(kept.upperBound, window.lowerBound)..<window.upperBound
            computed = window
            // One band per core: each band recomputes about ten rows past its edges (the guided filter's and the
            // sharpen mask's windows), and since the strips follow the bands, a core that ends its band early
            // starts on the strips rather than needing a second band to stay busy.
            let bands = RowBands.ranges(count: fresh.count, threads: threads.width, bandsPerThread: 1).map {
                ($0.lowerBound + fresh.lowerBound)..<($0.upperBound + fresh.lowerBound)
            }
            // The vertical passes run as jobs after the bands', each strip following the rows as the bands write
            // them. On one thread the jobs run in order, so every row is written before the first strip; on more,
            // even a single band (a one-row frame) needs the progress.
            let progress = threads.width > 1 && !bands.isEmpty ? RowProgress(bands: bands) : nil
            let target = BlurTarget(buffer: buffer, firstRow: window.lowerBound)
            let last = window.upperBound - 1
            RowBands.jobs(bands.count + frame.verticalStrips, threads: threads) { job in
                guard job >= bands.count else {
                    return rowStage(bands[job], index: job, context, blurred: target, progress: progress)
                }
                frame.verticalBlur(
                    strip: job - bands.count, of: buffer, rows: section.rows, window: window, blurBox,
                    passes: SpatialSteps.blurPasses, scratch: pool,
                    rowsWritten: { y in y < fresh.lowerBound ? fresh.lowerBound - 1 : (progress?.wait(for: y) ?? last) }
                ) {
                    x0, columns, y, row in
                    writer.store(packed: row, y: y, x0: x0, count: columns)
                }
            }
        }
    }

    /// What every band's row stage shares.
    struct RowContext {
        let firstAlpha: UInt8
        let rowHasFirstAlpha: UnsafeMutablePointer<Bool>?
        let writer: ByteWriter
        let frame: Planar
        let blurBox: SpatialSteps.ExtendedBox
    }

    /// Where the blur's horizontal passes write: image row y at `buffer + (y − firstRow) · rowFloats`.
    struct BlurTarget {
        let buffer: UnsafeMutablePointer<Float>
        let firstRow: Int
    }

    /// The streamed row stage on `band` (number `index` of the section's bands, for `progress`).
    private func rowStage(
        _ band: Range<Int>, index: Int, _ context: RowContext, blurred: BlurTarget?, progress: RowProgress?
    ) {
        let stage = BandRowStage(
            band: band, index: index, rows: rows, renderer: renderer, byteTable: byteTable,
            context: context, blurred: blurred, progress: progress)
        defer { stage.release() }
        stage.run()
    }
}
