import Parallel

/// A `ColourTransform` sampled on a 3D grid and read back by trilinear interpolation: the fast path's
/// single per-pixel step (saturation … black point fused).
///
/// The grid is not uniform, and it is chosen per preset. Inputs are 8-bit, so each axis's nodes sit at code
/// values, and a 256-entry table per axis gives every code its cell and weight: an irregular grid costs
/// nothing at lookup time. Nodes are placed where the transform bends (`nodeCodes(for:)`): the error of
/// linear interpolation over a cell of width h is about h²/8 · |f''|, so nodes are spread to equalise
/// √|f''| per cell (the classic equidistribution rule), measured along lines through the cube and only where
/// the output is visible (inside 0…1). A strong exposure's sRGB toe or a contrast-4 ramp thus gets a node at
/// every code, flat stretches few. Nodes hold the *unclamped* transform (steps 1–7); the clamp to 0…1 comes
/// after interpolation, so clipping never puts a kink inside a cell.
struct ColourLUT: Sendable {
    /// Nodes per axis.
    static let nodeCount = 48

    let size: Int
    /// Per axis, the code values of its nodes (increasing, from 0 to 255).
    let nodes: [[Int]]
    /// size³ entries, red fastest: index = (b · size + g) · size + r. Lane 3 is unused.
    let tableStorage: PinnedBuffer<SIMD4<Float>>
    /// For each code: offsets of its cell's lower corner along r, g and b (node index · 1, · size, · size²).
    let offsetStorage: PinnedBuffer<SIMD3<Int32>>
    /// For each code: its position inside the cell along r, g and b, 0…1 (lane 3 unused).
    let weightStorage: PinnedBuffer<SIMD4<Float>>

    init(_ transform: ColourTransform, threads: LentThreads = .callingThread, nodeCount: Int = ColourLUT.nodeCount) {
        let size = nodeCount
        let nodes = (0..<3).map { Self.nodeCodes(for: transform, axis: $0, count: size) }
        self.size = size
        self.nodes = nodes
        let offsets = PinnedBuffer<SIMD3<Int32>>(count: 256, repeating: .zero)
        let weights = PinnedBuffer<SIMD4<Float>>(count: 256, repeating: .zero)
        for axis in 0..<3 {
            let codes = nodes[axis]
            var node = 0
            for code in 0...255 {
                while node + 2 < size && codes[node + 1] <= code { node += 1 }
                let stride = [1, size, size * size][axis]
                offsets.pointer[code][axis] = Int32(node * stride)
                weights.pointer[code][axis] = Float(Double(code - codes[node]) / Double(codes[node + 1] - codes[node]))
            }
        }
        offsetStorage = offsets
        weightStorage = weights
        let levels = nodes.map { $0.map { Double($0) / 255 } }
        let table = PinnedBuffer<SIMD4<Float>>(count: size * size * size, repeating: .zero)
        let base = table.pointer
        RowBands.run(count: size, threads: threads) { blues in
            for b in blues {
                for g in 0..<size {
                    for r in 0..<size {
                        let c = transform.unclamped(levels[0][r], levels[1][g], levels[2][b])
                        base[(b * size + g) * size + r] = SIMD4(Float(c.0), Float(c.1), Float(c.2), 0)
                    }
                }
            }
        }
        tableStorage = table
    }

    /// `count` node codes for one axis, spread by the equidistribution rule described above.
    static func nodeCodes(for transform: ColourTransform, axis: Int, count: Int) -> [Int] {
        // Bending per code interval: the largest √|second difference| over 9 lines along `axis`.
        var bend = [Double](repeating: 0, count: 256)
        let others: [Double] = [0, 0.5, 1]
        var line = [(Double, Double, Double)](repeating: (0, 0, 0), count: 256)
        for u in others {
            for v in others {
                for code in 0...255 {
                    let t = Double(code) / 255
                    switch axis {
                    case 0: line[code] = transform.unclamped(t, u, v)
                    case 1: line[code] = transform.unclamped(u, t, v)
                    default: line[code] = transform.unclamped(u, v, t)
                    }
                }
                for code in 1...254 {
                    let (a, b, c) = (line[code - 1], line[code], line[code + 1])
                    func visible(_ x: Double, _ y: Double, _ z: Double) -> Bool {
                        min(x, y, z) < 1.02 && max(x, y, z) > -0.02
                    }
                    var d = 0.0
                    if visible(a.0, b.0, c.0) { d = max(d, abs(a.0 - 2 * b.0 + c.0)) }
                    if visible(a.1, b.1, c.1) { d = max(d, abs(a.1 - 2 * b.1 + c.1)) }
                    if visible(a.2, b.2, c.2) { d = max(d, abs(a.2 - 2 * b.2 + c.2)) }
                    bend[code] = max(bend[code], d.squareRoot())
                }
            }
        }
        // Density per interval [k, k+1]: its share of bending plus a floor so flat stretches keep some nodes.
        let total = bend.reduce(0, +)
        let floor = max(total, 1e-9) * 0.25 / 255
        var density = (0..<255).map { k in (bend[k] + bend[k + 1]) / 2 + floor }
        let sum = density.reduce(0, +)
        density = density.map { $0 / sum }
        var codes = [0]
        var cumulative = 0.0
        var next = 1
        for k in 0..<255 {
            cumulative += density[k]
            while next < count - 1 && cumulative >= Double(next) / Double(count - 1) {
                if codes.last! < k + 1 { codes.append(k + 1) }
                next += 1
            }
        }
        if codes.last! != 255 { codes.append(255) }
        // Rounding to codes can merge nodes: split the widest cells until there are `count`.
        while codes.count < count {
            var widest = 0
            for i in 0..<(codes.count - 1) where codes[i + 1] - codes[i] > codes[widest + 1] - codes[widest] {
                widest = i
            }
            guard codes[widest + 1] - codes[widest] > 1 else { break }
            codes.insert((codes[widest] + codes[widest + 1]) / 2, at: widest + 1)
        }
        return codes
    }
}

extension ColourTransform {
    /// The largest difference, in 8-bit code values, between a fast evaluation of the colour steps
    /// (`fast`, clamped to 0…1) and this transform, over the grey axis and 4096 seeded random colours.
    func worstError(of fast: (UInt8, UInt8, UInt8) -> SIMD4<Float>) -> Double {
        var generator = SplitMix64(seed: 0x1017)
        var worst = 0.0
        for i in 0..<(4096 + 256) {
            let rgb: SIMD3<UInt8> =
                i < 256
                ? SIMD3(repeating: UInt8(i))
                : SIMD3(
                    UInt8(truncatingIfNeeded: generator.next()), UInt8(truncatingIfNeeded: generator.next()),
                    UInt8(truncatingIfNeeded: generator.next()))
            let exact = apply(SIMD3(Double(rgb.x), Double(rgb.y), Double(rgb.z)) / 255)
            let c = fast(rgb.x, rgb.y, rgb.z)
            worst = max(worst, abs(Double(c.x) - exact.x), abs(Double(c.y) - exact.y), abs(Double(c.z) - exact.z))
        }
        return worst * 255
    }
}
