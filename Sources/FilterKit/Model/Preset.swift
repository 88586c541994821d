import Foundation
import JSON

/// A named, described set of filter values, as stored in `SampleMedia/presets/<name>.json`:
///
///     { "name": "warm-film", "description": "…", "values": { "temperature": 4800, "contrast": 1.1 } }
///
/// Parsing lives here (pure: bytes in, value out); finding and reading the file is the CLI's job.
public struct Preset: Sendable, Hashable, Codable {
    public var name: String
    public var description: String
    public var values: FilterValues

    public init(name: String, description: String = "", values: FilterValues) {
        self.name = name
        self.description = description
        self.values = values
    }

    /// Parses a preset file. A file that is a bare values object (no `values` key) is accepted too,
    /// named `fallbackName`. Values follow `FilterValues`' lenient decoding (clamping, legacy rules).
    /// - Throws: `PresetError.invalidJSON` / `.unrepresentable` / `.notAnObject` / `.badValue` naming what is
    ///   wrong.
    public static func parse(_ bytes: [UInt8], fallbackName: String = "preset") throws(PresetError) -> Preset {
        let report = PresetCheck.check(bytes)
        if let problem = report.problems.first(where: { $0.severity == .error }) {
            throw problem.asError
        }
        guard let object = report.object else { throw .notAnObject }
        var preset = Preset(name: fallbackName, values: FilterValues(wireValues: report.numbers))
        if case .string(let name)? = object["name"] { preset.name = name }
        if case .string(let description)? = object["description"] { preset.description = description }
        return preset
    }

    /// The preset as pretty-printed JSON with all 12 keys.
    public func jsonBytes() -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return (try? Array(encoder.encode(self))) ?? []
    }
}
