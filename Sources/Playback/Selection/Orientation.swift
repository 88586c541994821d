/// How the device is held; landscape usually means the player is full screen.
public enum Orientation: String, Sendable, Hashable, Codable {
    case portrait, landscape
}
