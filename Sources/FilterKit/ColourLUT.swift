/// A `ColourTransform` sampled on a 3D grid and read back by trilinear interpolation: the fast path's
/// single per-pixel step (saturation … black point fused).
///
/// The grid is not uniform: its nodes sit at 8-bit code values, one per code in the darkest codes (where
/// the sRGB toe and a strong exposure bend the curve most), then farther apart (`nodeCodes`). Since inputs
/// are 8-bit, a 256-entry table per axis gives each code's cell and weight, so the irregular grid costs nothing
/// at lookup time. Nodes hold the *unclamped* transform (steps 1–7) and the clamp to 0…1 comes after the
/// interpolation, so the clip never sits inside a cell as a kink.
struct ColourLUT: Sendable {
    /// Code values (0…255) of the grid nodes on each axis, increasing, first 0 and last 255.
    static let nodeCodes: [Int] = {
        var codes = Array(0...12)
        codes += stride(from: 14, through: 24, by: 2)
        codes += stride(from: 28, through: 48, by: 4)
        codes += stride(from: 54, through: 246, by: 8)
        codes.append(255)
        return codes
    }()

    let size: Int
    /// size³ entries, red fastest: index = (b · size + g) · size + r. Lane 3 is unused.
    let tableStorage: PinnedBuffer<SIMD4<Float>>
    /// For each code: offsets of its cell's lower corner along r, g and b (node index · 1, · size, · size²).
    let offsetStorage: PinnedBuffer<SIMD3<Int32>>
    /// For each code: its position inside the cell, 0…1.
    let weightStorage: PinnedBuffer<Float>

    init(_ transform: ColourTransform, threads: Int = 1) {
        let codes = Self.nodeCodes
        let size = codes.count
        self.size = size
        let offsets = PinnedBuffer<SIMD3<Int32>>(count: 256, repeating: .zero)
        let weights = PinnedBuffer<Float>(count: 256, repeating: 0)
        var node = 0
        for code in 0...255 {
            while node + 2 < size && codes[node + 1] <= code { node += 1 }
            let i = Int32(node), n = Int32(size)
            offsets.pointer[code] = SIMD3(i, i * n, i * n * n)
            weights.pointer[code] = Float(Double(code - codes[node]) / Double(codes[node + 1] - codes[node]))
        }
        offsetStorage = offsets
        weightStorage = weights
        let levels = codes.map { Double($0) / 255 }
        let table = PinnedBuffer<SIMD4<Float>>(count: size * size * size, repeating: .zero)
        let base = table.pointer
        RowBands.run(count: size, threads: threads) { blues in
            for b in blues {
                for g in 0..<size {
                    for r in 0..<size {
                        let c = transform.unclamped(SIMD3(levels[r], levels[g], levels[b]))
                        base[(b * size + g) * size + r] = SIMD4(Float(c.x), Float(c.y), Float(c.z), 0)
                    }
                }
            }
        }
        tableStorage = table
    }
}

/// A fixed-size buffer at a stable address, freed with its owner: the LUT's tables, read by raw pointer in the
/// inner loop. Written only while the owner is being built, read-only afterwards (hence safe to share).
final class PinnedBuffer<Element>: @unchecked Sendable {
    let pointer: UnsafeMutablePointer<Element>
    let count: Int

    init(count: Int, repeating value: Element) {
        self.count = count
        pointer = .allocate(capacity: count)
        pointer.initialize(repeating: value, count: count)
    }

    deinit {
        pointer.deinitialize(count: count)
        pointer.deallocate()
    }
}
