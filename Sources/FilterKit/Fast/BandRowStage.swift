/// The row stage of `SpatialRender` on one band of rows: each source row through the colour step (inside the
/// guided filter when there is noise reduction), the sharpen mask (`SharpenRows`) and the blur's horizontal
/// passes (`HorizontalBlur`), or straight to bytes without a blur. It owns two row buffers; `release()` frees them.
struct BandRowStage {
    let band: Range<Int>
    /// The band's number among the section's bands, for `progress`.
    let index: Int
    let rows: SourceRows
    let values: FilterValues
    let colourStep: ColourStep
    let byteTable: ExactByteTable?
    let writer: ByteWriter
    let frame: Planar
    let firstAlpha: UInt8
    let rowHasFirstAlpha: UnsafeMutablePointer<Bool>?
    let sharpen: SharpenRows?
    let blur: HorizontalBlur?
    let progress: RowProgress?
    /// A row after every step before the blur, when there is no blur to write it into.
    let line: UnsafeMutablePointer<SIMD4<Float>>
    /// Without a sharpen mask, the guided filter's output row (`PackedRGB`).
    let packedLine: UnsafeMutablePointer<Float>

    var width: Int { rows.width }

    init(
        band: Range<Int>, index: Int, rows: SourceRows, renderer: FilterRenderer, byteTable: ExactByteTable?,
        context: SpatialRender.RowContext, blurred: SpatialRender.BlurTarget?, progress: RowProgress?
    ) {
        let values = renderer.values, width = rows.width
        self.band = band
        self.index = index
        self.rows = rows
        self.values = values
        colourStep = renderer.colourStep
        self.byteTable = byteTable
        writer = context.writer
        frame = context.frame
        firstAlpha = context.firstAlpha
        rowHasFirstAlpha = context.rowHasFirstAlpha
        sharpen =
            values.sharpness > 0
            ? SharpenRows(band: band, width: width, height: rows.height, amount: Float(values.sharpness)) : nil
        blur = blurred.map {
            HorizontalBlur(
                width: width, box: context.blurBox, passes: SpatialSteps.blurPasses, output: $0.buffer,
                firstRow: $0.firstRow)
        }
        self.progress = progress
        line = UnsafeMutablePointer<SIMD4<Float>>.allocate(capacity: width)
        packedLine = PackedRGB.allocateFloats(PackedRGB.rowFloats(width))
    }

    /// Frees the row buffers.
    func release() {
        line.deallocate()
        packedLine.deallocate()
    }

    /// Streams every row of the band through the steps.
    func run() {
        let inputRows = sharpen?.inputRows ?? band
        if values.noiseReduction > 0 {
            frame.guidedFilter(
                rows: inputRows, packedColours,
                epsilon: Float(SpatialSteps.noiseEpsilon(values.noiseReduction)),
                target: target, rowDone: rowDone)
        } else if sharpen != nil {
            for y in inputRows {
                packedColours(y, target(y))
                rowDone(y)
            }
        } else {
            for y in inputRows {
                rows.fineColours(colourStep, table: byteTable, row: y, into: destination(y))
                checkAlpha(y)
                finished(y, destination(y))
            }
        }
        if let done = blur?.flush() { progress?.written(through: done, band: index) }
    }

    /// Notes whether the band's row y has the first pixel's alpha throughout (with a blur).
    func checkAlpha(_ y: Int) {
        if let rowHasFirstAlpha, band.contains(y) { rowHasFirstAlpha[y] = rows.alpha(firstAlpha, fills: y) }
    }

    /// Where row y after every step before the blur is written: the blur's next row, or `line`.
    func destination(_ y: Int) -> UnsafeMutablePointer<SIMD4<Float>> { blur?.nextRow ?? line }

    /// Row y after every step before the blur, written to `destination(y)`: to bytes without a blur, else
    /// through the blur's horizontal passes.
    func finished(_ y: Int, _ row: UnsafeMutablePointer<SIMD4<Float>>) {
        guard let blur else { return writer.store(row, y: y, x0: 0, count: width) }
        if let done = blur.rowWritten(y) { progress?.written(through: done, band: index) }
    }

    /// Where image row y (after the colour step and the guided filter) is written, `PackedRGB`.
    func target(_ y: Int) -> UnsafeMutablePointer<Float> { sharpen?.imageRow(y) ?? packedLine }

    /// Image row y is at `target(y)`: sharpen it, or unpack it, and pass it on.
    func rowDone(_ y: Int) {
        if let sharpen {
            sharpen.rowWritten(y, into: destination, emit: finished)
        } else {
            let row = destination(y)
            for x in 0..<width { row[x] = PackedRGB.load(packedLine, x) }
            finished(y, row)
        }
    }

    /// Source row y after the colour step, as `PackedRGB` floats at `row`.
    func packedColours(_ y: Int, _ row: UnsafeMutablePointer<Float>) {
        rows.fineColours(colourStep, table: byteTable, row: y, packed: row)
        checkAlpha(y)
    }
}
