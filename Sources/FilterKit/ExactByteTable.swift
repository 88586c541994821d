import Synchronization

/// The fast path's colour step for every one of the 2²⁴ input colours, as output bytes: a colour-only frame
/// then costs one table load per pixel.
///
/// Each entry is filled by running the same colour kernel and rounding (`FastRenderer.storeBytes`) that the
/// per-pixel pass runs, so the table's output is identical to that pass by construction. Entry
/// `r + 256·g + 65536·b` holds R, G, B in its first three bytes (the fourth is 0): that index is the low
/// 24 bits of a source pixel read as a little-endian `UInt32`, so a lookup needs no shuffling. 64 MB.
final class ExactByteTable: Sendable {
    private let storage: PinnedBuffer<UInt32>

    /// Runs the colour step on every input colour, split by blue planes of the table across `threads` cores.
    init(_ step: ColourStep, threads: Int) {
        storage = PinnedBuffer(count: 1 << 24, repeating: 0)
        let table = UnsafeMutableRawPointer(storage.pointer).assumingMemoryBound(to: UInt8.self)
        switch step {
        case .none: Self.fill(table, with: ByteScale(), threads: threads)
        case let .lookupTable(lut): Self.fill(table, with: LUTView(lut), threads: threads)
        case let .perPixel(pipeline): Self.fill(table, with: pipeline, threads: threads)
        }
    }

    /// Fills the table row by row (a row: 256 reds at one green and blue), four pixels at a time through
    /// `kernel.four`, as `SourceRows.colour` does.
    private static func fill<Kernel: ColourKernel>(_ table: UnsafeMutablePointer<UInt8>, with kernel: Kernel,
                                                   threads: Int) {
        nonisolated(unsafe) let table = table  // the bands write disjoint blue planes
        RowBands.run(count: 256, threads: threads) { blues in
            let row = UnsafeMutablePointer<UInt8>.allocate(capacity: 256 * 4)
            defer { row.deallocate() }
            for red in 0..<256 { row[4 * red] = UInt8(red) }
            for blue in blues {
                for green in 0..<256 {
                    for red in 0..<256 {
                        (row[4 * red + 1], row[4 * red + 2], row[4 * red + 3]) = (UInt8(green), UInt8(blue), 0)
                    }
                    let d = table + 4 * 256 * (green + 256 * blue)
                    for o in stride(from: 0, to: 256 * 4, by: 16) {
                        let c = kernel.four(row + o)
                        FastRenderer.storeBytes(c.0, alpha: 0, to: d + o)
                        FastRenderer.storeBytes(c.1, alpha: 0, to: d + o + 4)
                        FastRenderer.storeBytes(c.2, alpha: 0, to: d + o + 8)
                        FastRenderer.storeBytes(c.3, alpha: 0, to: d + o + 12)
                    }
                }
            }
        }
    }

    /// Maps every pixel of the source rows to the output rows (alpha copied), split by rows.
    func apply(_ rows: SourceRows, into output: UnsafeMutablePointer<UInt8>, stride outputStride: Int) {
        let entries = UnsafePointer(storage.pointer), width = rows.width, source = rows.bytes, stride = rows.stride
        nonisolated(unsafe) let output = output  // the bands write disjoint rows
        RowBands.run(count: rows.height, threads: rows.threads) { band in
            for y in band {
                let s = UnsafeRawPointer(source + y * stride), d = UnsafeMutableRawPointer(output + y * outputStride)
                for x in 0..<width {
                    let pixel = UInt32(littleEndian: s.loadUnaligned(fromByteOffset: 4 * x, as: UInt32.self))
                    let colour = UInt32(littleEndian: entries[Int(pixel & 0x00FF_FFFF)])
                    d.storeBytes(of: (colour | (pixel & 0xFF00_0000)).littleEndian, toByteOffset: 4 * x, as: UInt32.self)
                }
            }
        }
    }
}

/// A renderer's `ExactByteTable`, built once it pays and then shared by every copy of the renderer.
final class ExactByteTableCache: Sendable {
    private struct State: Sendable {
        var table: ExactByteTable?
        /// Colour-only pixels rendered so far without the table.
        var pixels = 0
    }
    private let state = Mutex(State())

    /// Whether the table has been built.
    var isBuilt: Bool { state.withLock { $0.table != nil } }

    /// The table for a colour-only frame of `pixels` pixels, or nil for the per-pixel pass. With `.whenItPays`
    /// it is built once this renderer's colour-only pixels (this frame included) reach 2²⁴, the table's
    /// size: so the build at most doubles the work already done (a long video pays it back; a still below
    /// 16.7 megapixels or a few small frames never build it). Other callers wait for a build, not repeat it.
    func table(for step: ColourStep, threads: Int, pixels: Int, use: FilterRenderer.ByteTableUse) -> ExactByteTable? {
        state.withLock { state in
            if let table = state.table { return table }
            state.pixels += pixels
            switch use {
            case .never: return nil
            case .whenItPays where state.pixels < 1 << 24: return nil
            case .always, .whenItPays:
                let built = ExactByteTable(step, threads: threads)
                state.table = built
                return built
            }
        }
    }
}
