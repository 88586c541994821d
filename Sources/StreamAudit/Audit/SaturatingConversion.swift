/// Whole numbers from measurements that a playlist or a container can make as large as it likes (an EXTINF of
/// 10^20 s, a timestamp near 2^63): clamped to the type's range, never a trap.
extension Int {
    /// `value` rounded to the nearest whole number, clamped to Int's range; NaN gives 0.
    init(saturating value: Double) {
        if value.isNaN {
            self = 0
        } else if value >= 0x1p63 {
            self = .max
        } else if value < -0x1p63 {
            self = .min
        } else {
            self = Int(value.rounded())
        }
    }
}
