/// A number as a person writes it in a message or a help screen: an integral value without a fraction (`30`, not
/// `30.0`), any other as Swift prints it (`4.5`, `0.33334`, `1e-05`).
public func plainNumber(_ value: Double) -> String {
    value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
}

/// `value` rounded to `digits` decimals, halves away from zero, always showing them (`6.006`, `2.50`, `-0.3`), or
/// without trailing zeros when `trimmingZeros` (`2.5`, `2`). The formatter of every report, table and screen: no
/// locale and no Foundation `String(format:)`. A value that rounds to zero has no sign; a non-finite value, or one
/// too large to round exactly (`|value| × 10^digits` of 9e15 or more), prints as Swift prints it (`1e+300`).
public func fixedNumber(_ value: Double, digits: Int, trimmingZeros: Bool = false) -> String {
    guard value.isFinite else { return String(value) }
    var scale = 1.0
    for _ in 0..<digits { scale *= 10 }
    let scaled = (abs(value) * scale).rounded()
    guard scaled < 9e15 else { return String(value) }
    let units = Int(scaled), divisor = Int(scale)
    var text = (value < 0 && units != 0 ? "-" : "") + String(units / divisor)
    if digits > 0 {
        let fraction = String(units % divisor)
        var decimals = String(repeating: "0", count: digits - fraction.count) + fraction
        if trimmingZeros { while decimals.last == "0" { decimals.removeLast() } }
        if !decimals.isEmpty { text += "." + decimals }
    }
    return text
}
