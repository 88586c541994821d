import Synchronization

/// The fast path's colour step for every one of the 2²⁴ input colours: a frame's colour step then costs one
/// table load per pixel.
///
/// Each entry is filled by running the same colour kernel and rounding that the per-pixel pass runs, so the
/// table's output is identical to that pass by construction. Entry `r + 256·g + 65536·b` is the low 24 bits
/// of a source pixel read as a little-endian `UInt32`, so a lookup needs no shuffling. 64 MB. An entry holds
/// (`Entry`) either the output bytes (colour-only presets: R, G, B in its first three bytes, the fourth 0,
/// rounded as `FastRenderer.storeBytes` does) or, for presets with spatial steps, the colour in 11/11/10-bit
/// fixed point (`FineColour`) that the spatial steps start from.
final class ExactByteTable: Sendable {
    /// What an entry holds.
    enum Entry: Sendable {
        /// The final R, G, B bytes (colour-only presets).
        case bytes
        /// A `FineColour` code: the input of the spatial steps.
        case fine
    }

    let entry: Entry
    private let storage: PinnedBuffer<UInt32>

    /// Runs the colour step on every input colour, split by blue planes of the table across `threads` cores.
    init(_ step: ColourStep, entry: Entry, threads: Int) {
        self.entry = entry
        storage = PinnedBuffer(count: 1 << 24, repeating: 0)
        switch step {
        case .none: Self.fill(storage.pointer, with: ByteScale(), entry: entry, threads: threads)
        case let .lookupTable(lut): Self.fill(storage.pointer, with: LUTView(lut), entry: entry, threads: threads)
        case let .perPixel(pipeline): Self.fill(storage.pointer, with: pipeline, entry: entry, threads: threads)
        }
    }

    /// Fills the table row by row (a row: 256 reds at one green and blue), four pixels at a time through
    /// `kernel.four`, as `SourceRows.colour` does.
    private static func fill<Kernel: ColourKernel>(_ table: UnsafeMutablePointer<UInt32>, with kernel: Kernel,
                                                   entry: Entry, threads: Int) {
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
                    let d = table + 256 * (green + 256 * blue)
                    for o in stride(from: 0, to: 256, by: 4) {
                        let c = kernel.four(row + 4 * o)
                        switch entry {
                        case .bytes:
                            let bytes = UnsafeMutableRawPointer(d + o).assumingMemoryBound(to: UInt8.self)
                            FastRenderer.storeBytes(c.0, alpha: 0, to: bytes)
                            FastRenderer.storeBytes(c.1, alpha: 0, to: bytes + 4)
                            FastRenderer.storeBytes(c.2, alpha: 0, to: bytes + 8)
                            FastRenderer.storeBytes(c.3, alpha: 0, to: bytes + 12)
                        case .fine:
                            (d[o], d[o + 1], d[o + 2], d[o + 3]) = (FineColour.encode(c.0), FineColour.encode(c.1),
                                                                    FineColour.encode(c.2), FineColour.encode(c.3))
                        }
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

extension ExactByteTable {
    /// Maps every pixel of the source rows to its `FineColour` (a `.fine` table), into a packed image of
    /// `SIMD4<Float>` (lane 3 is 0), split by rows.
    func apply(_ rows: SourceRows, into image: UnsafeMutablePointer<SIMD4<Float>>) {
        let entries = UnsafePointer(storage.pointer), width = rows.width, source = rows.bytes, stride = rows.stride
        nonisolated(unsafe) let image = image  // the bands write disjoint rows
        RowBands.run(count: rows.height, threads: rows.threads) { band in
            for y in band {
                let s = UnsafeRawPointer(source + y * stride), d = image + y * width
                for x in 0..<width {
                    let pixel = UInt32(littleEndian: s.loadUnaligned(fromByteOffset: 4 * x, as: UInt32.self))
                    d[x] = FineColour.decode(entries[Int(pixel & 0x00FF_FFFF)])
                }
            }
        }
    }
}

/// A renderer's `ExactByteTable`, built once it pays and then shared by every copy of the renderer.
final class ExactByteTableCache: Sendable {
    private struct State: Sendable {
        var table: ExactByteTable?
        /// Pixels rendered so far without the table.
        var pixels = 0
    }
    private let state = Mutex(State())

    /// Whether the table has been built.
    var isBuilt: Bool { state.withLock { $0.table != nil } }

    /// The table for a frame of `pixels` pixels, or nil for the per-pixel pass. With `.whenItPays` it is built
    /// once this renderer's pixels (this frame included) reach 2²⁴, the table's size: so the build at most
    /// doubles the colour work already done (a long video pays it back; a still below
    /// 16.7 megapixels or a few small frames never build it). Other callers wait for a build, not repeat it.
    func table(for step: ColourStep, entry: ExactByteTable.Entry, threads: Int, pixels: Int,
               use: FilterRenderer.ByteTableUse) -> ExactByteTable? {
        state.withLock { state in
            if let table = state.table { return table }
            state.pixels += pixels
            switch use {
            case .never: return nil
            case .whenItPays where state.pixels < 1 << 24: return nil
            case .always, .whenItPays:
                let built = ExactByteTable(step, entry: entry, threads: threads)
                state.table = built
                return built
            }
        }
    }
}
