import Foundation

/// The app's JSON wire format: one object with the 12 snake_case keys (`noise_reduction`, `black_point`).
///
/// Decoding is lenient the way the app is: every key is optional (a missing key keeps its default),
/// out-of-range numbers are clamped, a legacy preset whose 12 values are all 0 or missing means `neutral`,
/// and a temperature ≤ 0 means 6500 K while the other values are kept. Unknown keys are ignored
/// (`PresetCheck` reports them). Encoding always writes all 12 keys.
extension FilterValues: Codable {
    struct WireKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: WireKey.self)
        var raw: [Key: Double] = [:]
        for key in Key.allCases {
            if let value = try container.decodeIfPresent(Double.self, forKey: WireKey(stringValue: key.rawValue)) {
                raw[key] = value
            }
        }
        self.init(wireValues: raw)
    }

    /// Values from the wire numbers present (by key), applying the legacy rules and clamping.
    public init(wireValues raw: [Key: Double]) {
        self.init()
        if raw.values.allSatisfy({ $0 == 0 }) { return }  // legacy all-zero (or empty) preset: neutral
        for (key, value) in raw { self[key] = value }
        if let temperature = raw[.temperature], temperature <= 0 { self.temperature = 6500 }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: WireKey.self)
        for key in Key.allCases {
            try container.encode(self[key], forKey: WireKey(stringValue: key.rawValue))
        }
    }
}
