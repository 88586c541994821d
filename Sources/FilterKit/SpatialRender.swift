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
        let writer = ByteWriter(source: rows, alpha: blurs ? firstAlpha : rows.uniformAlpha(),
                                rowHasAlpha: rowHasFirstAlpha.map { UnsafePointer($0) }, output: output,
                                outputStride: outputStride, vignette: values.vignette, pool: pool)
        defer { writer.release(to: pool) }
        let context = RowContext(firstAlpha: firstAlpha, rowHasFirstAlpha: rowHasFirstAlpha, writer: writer,
                                 frame: frame, blurBox: blurBox)
        guard blurs else {
            let bands = RowBands.ranges(count: height, threads: threads, bandsPerThread: 1)
            RowBands.jobs(bands.count, threads: threads) { rowStage(bands[$0], index: $0, context, blurred: nil, progress: nil) }
            return
        }
        let sections = BlurSections(width: width, height: height, box: blurBox, passes: SpatialSteps.blurPasses,
                                    pixelsPerSection: renderer.sectionPixels)
        let rowFloats = PackedRGB.rowFloats(width), count = rowFloats * sections.largestWindow
        let buffer = pool.take(Float.self, count: count)
        defer { pool.give(buffer, count: count) }
        var computed = 0..<0  // the image rows `buffer` holds, from its first row on
        for section in sections.sections {
            let window = section.window
            // Rows the previous section computed and this one needs move to the front of the buffer.
            let kept = max(window.lowerBound, computed.lowerBound)..<max(window.lowerBound, min(computed.upperBound, window.upperBound))
            if !kept.isEmpty {
                UnsafeMutableRawPointer(buffer + (kept.lowerBound - window.lowerBound) * rowFloats)
                    .copyMemory(from: buffer + (kept.lowerBound - computed.lowerBound) * rowFloats,
                                byteCount: kept.count * rowFloats * MemoryLayout<Float>.stride)
            }
            let fresh = max(kept.upperBound, window.lowerBound)..<window.upperBound
            computed = window
            // One band per core: each band recomputes about ten rows past its edges (the guided filter's and the
            // sharpen mask's windows), and since the strips follow the bands, a core that ends its band early
            // starts on the strips rather than needing a second band to stay busy.
            let bands = RowBands.ranges(count: fresh.count, threads: threads, bandsPerThread: 1).map {
                ($0.lowerBound + fresh.lowerBound)..<($0.upperBound + fresh.lowerBound)
            }
            // The vertical passes run as jobs after the bands', each strip following the rows as the bands write
            // them. On one thread the jobs run in order, so every row is written before the first strip; on more,
            // even a single band (a one-row frame) needs the progress.
            let progress = threads > 1 && !bands.isEmpty ? RowProgress(bands: bands) : nil
            let target = BlurTarget(buffer: buffer, firstRow: window.lowerBound)
            let last = window.upperBound - 1
            RowBands.jobs(bands.count + frame.verticalStrips, threads: threads) { job in
                guard job >= bands.count else {
                    return rowStage(bands[job], index: job, context, blurred: target, progress: progress)
                }
                frame.verticalBlur(strip: job - bands.count, of: buffer, rows: section.rows, window: window, blurBox,
                                   passes: SpatialSteps.blurPasses, scratch: pool,
                                   rowsWritten: { y in y < fresh.lowerBound ? fresh.lowerBound - 1 : (progress?.wait(for: y) ?? last) }) {
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
    private func rowStage(_ band: Range<Int>, index: Int, _ context: RowContext, blurred: BlurTarget?, progress: RowProgress?) {
        let values = values, width = width, height = height, rows = rows, renderer = renderer, byteTable = byteTable
        let writer = context.writer, rowHasFirstAlpha = context.rowHasFirstAlpha, firstAlpha = context.firstAlpha
        let sharpen = values.sharpness > 0
            ? SharpenRows(band: band, width: width, height: height, amount: Float(values.sharpness)) : nil
        let blur = blurred.map {
            HorizontalBlur(width: width, box: context.blurBox, passes: SpatialSteps.blurPasses, output: $0.buffer,
                           firstRow: $0.firstRow)
        }
        let line = UnsafeMutablePointer<SIMD4<Float>>.allocate(capacity: width)
        /// Without a sharpen mask, the guided filter's output row (`PackedRGB`).
        let packedLine = PackedRGB.allocateFloats(PackedRGB.rowFloats(width))
        defer {
            line.deallocate()
            packedLine.deallocate()
        }
        /// Notes whether the band's row y has the first pixel's alpha throughout (with a blur).
        func checkAlpha(_ y: Int) {
            if let rowHasFirstAlpha, band.contains(y) { rowHasFirstAlpha[y] = rows.alpha(firstAlpha, fills: y) }
        }
        /// Where row y after every step before the blur is written: the blur's next row, or a line.
        func destination(_ y: Int) -> UnsafeMutablePointer<SIMD4<Float>> { blur?.nextRow ?? line }
        /// Row y after every step before the blur, written to `destination(y)`.
        func finished(_ y: Int, _ row: UnsafeMutablePointer<SIMD4<Float>>) {
            guard let blur else { return writer.store(row, y: y, x0: 0, count: width) }
            if let done = blur.rowWritten(y) { progress?.written(through: done, band: index) }
        }
        /// Where image row y (after the colour step and the guided filter) is written, `PackedRGB`.
        func target(_ y: Int) -> UnsafeMutablePointer<Float> { sharpen?.imageRow(y) ?? packedLine }
        func rowDone(_ y: Int) {
            if let sharpen {
                sharpen.rowWritten(y, into: destination, emit: finished)
            } else {
                let row = destination(y)
                for x in 0..<width { row[x] = PackedRGB.load(packedLine, x) }
                finished(y, row)
            }
        }
        let packedColours = { (y: Int, row: UnsafeMutablePointer<Float>) in
            rows.fineColours(renderer.colourStep, table: byteTable, row: y, packed: row)
            checkAlpha(y)
        }
        let inputRows = sharpen?.inputRows ?? band
        if values.noiseReduction > 0 {
            context.frame.guidedFilter(rows: inputRows, packedColours,
                                       epsilon: Float(SpatialSteps.noiseEpsilon(values.noiseReduction)),
                                       target: target, rowDone: rowDone)
        } else if sharpen != nil {
            for y in inputRows {
                packedColours(y, target(y))
                rowDone(y)
            }
        } else {
            for y in inputRows {
                rows.fineColours(renderer.colourStep, table: byteTable, row: y, into: destination(y))
                checkAlpha(y)
                finished(y, destination(y))
            }
        }
        if let done = blur?.flush() { progress?.written(through: done, band: index) }
    }
}
