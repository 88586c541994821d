/// The five rows of a guided-filter column window (r = `SpatialSteps.noiseRadius` = 2), as five values rather
/// than an array: the inner loop then keeps the row pointers in registers and loads only samples. Rows are read
/// four floats at a time (`SIMD4` number x is floats 4x … 4x + 3, whatever pixels they belong to).
struct ColumnWindow {
    let r0, r1, r2, r3, r4: UnsafePointer<SIMD4<Float>>

    /// `row(d)` is the d-th row of the window, d in 0…4 (16-byte aligned).
    @inline(__always)
    init(_ row: (Int) -> UnsafeMutablePointer<Float>) {
        precondition(SpatialSteps.noiseRadius == 2, "ColumnWindow holds the 2r + 1 = 5 rows of r = 2")
        (r0, r1, r2, r3, r4) = (
            Self.vectors(row(0)), Self.vectors(row(1)), Self.vectors(row(2)),
            Self.vectors(row(3)), Self.vectors(row(4))
        )
    }

    /// The sum of floats 4x … 4x + 3 over the window, top row first.
    @inline(always)
    func sum(_ x: Int) -> SIMD4<Float> { r0[x] + r1[x] + r2[x] + r3[x] + r4[x] }

    /// A 16-byte aligned row of floats as `SIMD4`s (number x is floats 4x … 4x + 3).
    @inline(always)
    static func vectors(_ row: UnsafeMutablePointer<Float>) -> UnsafeMutablePointer<SIMD4<Float>> {
        assert(Int(bitPattern: row) % 16 == 0, "aligned rows")
        return UnsafeMutableRawPointer(row).assumingMemoryBound(to: SIMD4<Float>.self)
    }

    @inline(always)
    static func vectors(_ row: UnsafeMutablePointer<Float>) -> UnsafePointer<SIMD4<Float>> {
        UnsafePointer(vectors(row) as UnsafeMutablePointer<SIMD4<Float>>)
    }
}
