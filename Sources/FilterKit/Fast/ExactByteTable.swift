import Foundation  // madvise
import Parallel
import Synchronization

/// The fast path's colour step for every one of the 2²⁴ input colours, filled on demand: a frame's colour
/// step then costs one table load per pixel, and the colour step runs once per distinct colour (a 720p
/// camera frame has about 60 000, twenty seconds of them about 90 000) instead of once per pixel.
///
/// Each entry is computed by the same colour kernel and rounding that the per-pixel pass runs, so the
/// table's output is identical to that pass by construction. Entry `r + 256·g + 65536·b` is the low 24 bits
/// of a source pixel read as a little-endian `UInt32`, so a lookup needs no shuffling. 64 MB. An entry holds
/// (`Entry`) either the output bytes (colour-only presets: R, G, B in its first three bytes, the fourth 0,
/// rounded as `FastRenderer.storeBytes` does) or, for presets with spatial steps, the colour as a
/// `FineColour` code that the spatial steps start from; `missing` (all bits set, which neither kind uses)
/// until a frame needs it: whoever meets a missing entry computes and stores it. Entries are atomics
/// (relaxed: a plain load or store on x86 and ARM) because the bands of a frame, and renders sharing the
/// table, run at once; an entry only ever goes from `missing` to its one value, so two
/// threads filling the same entry store the same bits.
final class ExactByteTable: Sendable {
    /// What an entry holds.
    enum Entry: Sendable {
        /// The final R, G, B bytes (colour-only presets).
        case bytes
        /// A `FineColour` code: the input of the spatial steps.
        case fine
    }

    static let missing = UInt32.max
    let entry: Entry
    let step: ColourStep
    private let storage: AtomicStorage

    /// An empty table (every entry `missing`) for `step`'s colours.
    init(_ step: ColourStep, entry: Entry) {
        (self.step, self.entry) = (step, entry)
        storage = AtomicStorage(count: 1 << 24, repeating: Self.missing)
    }

    /// The entry of colour `index` (`r + 256·g + 65536·b`), computed and stored if missing.
    func resolve(_ index: Int) -> UInt32 {
        let known = storage.pointer[index].load(ordering: .relaxed)
        if known != Self.missing { return known }
        let (r, g, b) = (
            UInt8(truncatingIfNeeded: index), UInt8(truncatingIfNeeded: index >> 8),
            UInt8(truncatingIfNeeded: index >> 16)
        )
        let colour: SIMD4<Float>
        switch step {
        case .none: colour = ByteScale()(r, g, b)
        case .lookupTable(let lut): colour = LUTView(lut)(r, g, b)
        case .perPixel(let pipeline): colour = pipeline(r, g, b)
        }
        let value = entry == .bytes ? FastRenderer.packed(colour, alpha: 0) : FineColour.encode(colour)
        storage.pointer[index].store(value, ordering: .relaxed)
        return value
    }

    /// Maps every pixel of the source rows to the output rows (a `.bytes` table; alpha copied), split by rows.
    ///
    /// Each band calls `applyRow`, a method, not a closure handed through `RowBands`: such a closure cannot be
    /// inlined into the `concurrentPerform` body, and the pixel loop would call it once per pixel.
    func apply(_ rows: SourceRows, into output: UnsafeMutablePointer<UInt8>, stride outputStride: Int) {
        nonisolated(unsafe) let output = output  // the bands write disjoint rows
        RowBands.run(count: rows.height, threads: rows.threads) { band in
            for y in band { applyRow(rows, row: y, into: output + y * outputStride) }
        }
    }

    /// Row `y` of `apply`.
    private func applyRow(_ rows: SourceRows, row y: Int, into output: UnsafeMutablePointer<UInt8>) {
        let d = UnsafeMutableRawPointer(output)
        map(rows, row: y) { x, pixel, colour in
            d.storeBytes(of: (colour | (pixel & 0xFF00_0000)).littleEndian, toByteOffset: 4 * x, as: UInt32.self)
        }
    }

    /// Maps row `y` of the source rows to its `FineColour`s (a `.fine` table), handing pixel x to `put(x, colour)`
    /// in order of x (lane 3 is 0).
    @inline(always)
    func fineColours(_ rows: SourceRows, row y: Int, _ put: (Int, SIMD4<Float>) -> Void) {
        map(rows, row: y) { x, _, code in put(x, FineColour.decode(code)) }
    }

    /// Calls `write(x, source pixel, entry)` for every pixel of row `y`; a missing entry is resolved by the
    /// caller that meets it (two bands meeting the same colour both compute it and store the same value).
    @inline(always)
    private func map(_ rows: SourceRows, row y: Int, _ write: (Int, UInt32, UInt32) -> Void) {
        let entries = UnsafePointer(storage.pointer)
        let s = UnsafeRawPointer(rows.bytes + y * rows.stride)
        for x in 0..<rows.width {
            let pixel = UInt32(littleEndian: s.loadUnaligned(fromByteOffset: 4 * x, as: UInt32.self))
            let index = Int(pixel & 0x00FF_FFFF)
            let entry = entries[index].load(ordering: .relaxed)
            write(x, pixel, entry != Self.missing ? entry : resolve(index))
        }
    }
}
