/// An adaptive-bitrate rule: picks a variant from the input, within the range the selector allows
/// (the viewport cap). A rule may keep state between calls (BOLA's placeholder, MPC's error history).
public protocol ABRRule: Sendable {
    var name: String { get }
    mutating func choose(_ input: SelectionInput, allowed: ClosedRange<Int>) -> Selection
}
