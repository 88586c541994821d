/// A number as a person writes it in a message or a help screen: an integral value without a fraction (`30`, not
/// `30.0`), any other as Swift prints it (`4.5`, `0.33334`, `1e-05`). The one such formatter of the package.
public func plainNumber(_ value: Double) -> String {
    value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
}
