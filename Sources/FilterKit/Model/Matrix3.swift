/// A 3×3 matrix of `Double`, row major; just what colour conversion needs.
struct Matrix3: Sendable, Equatable {
    var rows: (SIMD3<Double>, SIMD3<Double>, SIMD3<Double>)

    init(
        _ a: Double, _ b: Double, _ c: Double, _ d: Double, _ e: Double, _ f: Double, _ g: Double, _ h: Double,
        _ i: Double
    ) {
        rows = (SIMD3(a, b, c), SIMD3(d, e, f), SIMD3(g, h, i))
    }

    init(diagonal: SIMD3<Double>) { self.init(diagonal.x, 0, 0, 0, diagonal.y, 0, 0, 0, diagonal.z) }

    static let identity = Matrix3(diagonal: SIMD3(1, 1, 1))

    static func == (lhs: Matrix3, rhs: Matrix3) -> Bool {
        lhs.rows.0 == rhs.rows.0 && lhs.rows.1 == rhs.rows.1 && lhs.rows.2 == rhs.rows.2
    }

    static func * (m: Matrix3, v: SIMD3<Double>) -> SIMD3<Double> {
        SIMD3((m.rows.0 * v).sum(), (m.rows.1 * v).sum(), (m.rows.2 * v).sum())
    }

    var columns: (SIMD3<Double>, SIMD3<Double>, SIMD3<Double>) {
        (SIMD3(rows.0.x, rows.1.x, rows.2.x), SIMD3(rows.0.y, rows.1.y, rows.2.y), SIMD3(rows.0.z, rows.1.z, rows.2.z))
    }

    static func * (a: Matrix3, b: Matrix3) -> Matrix3 {
        let c = b.columns
        func row(_ r: SIMD3<Double>) -> SIMD3<Double> { SIMD3((r * c.0).sum(), (r * c.1).sum(), (r * c.2).sum()) }
        var m = Matrix3.identity
        m.rows = (row(a.rows.0), row(a.rows.1), row(a.rows.2))
        return m
    }

    /// The inverse by cofactors (the matrices used here are well conditioned).
    var inverse: Matrix3 {
        let (r0, r1, r2) = rows
        func cross(_ u: SIMD3<Double>, _ v: SIMD3<Double>) -> SIMD3<Double> {
            SIMD3(u.y * v.z - u.z * v.y, u.z * v.x - u.x * v.z, u.x * v.y - u.y * v.x)
        }
        let c0 = cross(r1, r2), c1 = cross(r2, r0), c2 = cross(r0, r1)
        let determinant = (r0 * c0).sum()
        // The inverse's columns are the cofactor vectors divided by the determinant.
        return Matrix3(
            c0.x / determinant, c1.x / determinant, c2.x / determinant,
            c0.y / determinant, c1.y / determinant, c2.y / determinant,
            c0.z / determinant, c1.z / determinant, c2.z / determinant)
    }
}
