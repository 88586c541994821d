/// How the fast path splits a tall frame with a blur into sections of rows done one after another, so the buffer
/// of horizontally blurred rows (`PackedRGB`, 12 bytes a pixel) holds one section and its margins, not the frame.
///
/// A section outputs `rows`; its vertical passes read the blurred rows `window`. The vertical passes restart
/// their running sums every `Planar.verticalBlockRows` (64) rows, counted from the frame's first row, so a
/// section starts on such a row, and pass p of `passes` starts `(passes − 1 − p)` blocks above it, on a restart
/// too: pass p then computes the rows the next pass reads exactly as over the whole frame. Pass 0 reads r + 1 rows
/// above its start, and every pass r + 1 rows below the last pass's rows (r the box radius), which bounds
/// `window`. This needs r + 1 ≤ 64 (blur ≤ 20 has r = 19); otherwise the frame is one section.
struct BlurSections {
    struct Section: Equatable {
        var rows: Range<Int>
        var window: Range<Int>
    }

    let sections: [Section]
    /// The most rows a window has.
    let largestWindow: Int

    /// - Parameter pixelsPerSection: a frame of at most this many pixels is one section; a larger one gets sections
    ///   of about this many pixels (a whole number of blocks of rows, at least one block).
    init(width: Int, height: Int, box: SpatialSteps.ExtendedBox, passes: Int, pixelsPerSection: Int) {
        let block = Planar.verticalBlockRows, reach = box.radius + 1
        let rowsPerSection = max(block, pixelsPerSection / max(1, width) / block * block)
        guard width * height > pixelsPerSection, rowsPerSection < height, reach <= block else {
            sections = [Section(rows: 0..<height, window: 0..<height)]
            largestWindow = height
            return
        }
        sections = Swift.stride(from: 0, to: height, by: rowsPerSection).map { first in
            let rows = first..<min(height, first + rowsPerSection)
            let firstPassStart = max(0, first - (passes - 1) * block)
            return Section(
                rows: rows, window: max(0, firstPassStart - reach)..<min(height, rows.upperBound + passes * reach))
        }
        largestWindow = sections.map(\.window.count).max() ?? height
    }
}
