import FilterKit
import Foundation
import Testing

@Suite struct FilterValuesTests {
    struct RangeCase: Sendable, CustomTestStringConvertible {
        var key: FilterValues.Key
        var range: ClosedRange<Double>
        var defaultValue: Double
        var testDescription: String { key.rawValue }
    }

    static let ranges: [RangeCase] = [
        .init(key: .brightness, range: -1...1, defaultValue: 0), .init(key: .exposure, range: -5...5, defaultValue: 0),
        .init(key: .contrast, range: 0...4, defaultValue: 1), .init(key: .saturation, range: 0...2, defaultValue: 1),
        .init(key: .sharpness, range: 0...2, defaultValue: 0), .init(key: .blur, range: 0...20, defaultValue: 0),
        .init(key: .vignette, range: 0...2, defaultValue: 0),
        .init(key: .noiseReduction, range: 0...1, defaultValue: 0),
        .init(key: .highlights, range: -1...1, defaultValue: 0), .init(key: .shadows, range: 0...1, defaultValue: 0),
        .init(key: .temperature, range: 2000...10000, defaultValue: 6500),
        .init(key: .blackPoint, range: 0...1, defaultValue: 0),
    ]

    @Test func thereAreTwelveAdjustments() {
        #expect(FilterValues.Key.allCases.count == 12)
        #expect(Set(Self.ranges.map(\.key)) == Set(FilterValues.Key.allCases))
    }

    @Test(arguments: ranges)
    func rangeAndDefaultMatchTheApp(_ c: RangeCase) {
        #expect(c.key.range == c.range)
        #expect(c.key.defaultValue == c.defaultValue)
        #expect(FilterValues()[c.key] == c.defaultValue)
        #expect(FilterValues.neutral[c.key] == c.defaultValue)
    }

    @Test(arguments: ranges)
    func settingAValueClampsItIntoItsRange(_ c: RangeCase) {
        var values = FilterValues()
        values[c.key] = c.range.upperBound + 100
        #expect(values[c.key] == c.range.upperBound)
        values[c.key] = c.range.lowerBound - 100
        #expect(values[c.key] == c.range.lowerBound)
        let inside = (c.range.lowerBound + c.range.upperBound) / 2 + 0.125
        values[c.key] = inside
        #expect(values[c.key] == inside)
        values[c.key] = .nan
        #expect(values[c.key] == c.defaultValue)
    }

    @Test func propertiesClampLikeTheApp() {
        var values = FilterValues()
        values.contrast = 8
        values.temperature = 12000
        values.blur = 30
        #expect(values.contrast == 4)
        #expect(values.temperature == 10000)
        #expect(values.blur == 20)
        #expect(FilterValues(exposure: -9).exposure == -5)
    }

    @Test func neutralIsNeutralAndAnyChangeIsNot() {
        #expect(FilterValues.neutral.isNeutral)
        for key in FilterValues.Key.allCases {
            var values = FilterValues()
            values[key] = key.defaultValue == key.range.upperBound ? key.range.lowerBound : key.range.upperBound
            #expect(!values.isNeutral, "\(key)")
        }
    }

    static func decode(_ json: String) throws -> FilterValues {
        try JSONDecoder().decode(FilterValues.self, from: Data(json.utf8))
    }

    @Test func decodingClampsTheAppsOutOfRangeValues() throws {
        let values = try Self.decode(#"{"contrast": 8, "temperature": 12000, "blur": 30}"#)
        #expect(values.contrast == 4)
        #expect(values.temperature == 10000)
        #expect(values.blur == 20)
        #expect(values.saturation == 1)
    }

    @Test func allZeroLegacyPresetDecodesAsNeutral() throws {
        let zeros = FilterValues.Key.allCases.map { "\"\($0.rawValue)\": 0" }.joined(separator: ", ")
        #expect(try Self.decode("{\(zeros)}") == .neutral)
        #expect(try Self.decode(#"{"contrast": 0, "saturation": 0}"#) == .neutral)
        #expect(try Self.decode("{}") == .neutral)
    }

    @Test func legacyTemperatureZeroMeans6500AndKeepsTheOtherValues() throws {
        let values = try Self.decode(#"{"temperature": 0, "contrast": 1.5, "saturation": 0}"#)
        #expect(values.temperature == 6500)
        #expect(values.contrast == 1.5)
        #expect(values.saturation == 0)
        #expect(try Self.decode(#"{"temperature": -300, "blur": 2}"#).temperature == 6500)
    }

    @Test func aMissingKeyKeepsItsDefault() throws {
        let values = try Self.decode(#"{"noise_reduction": 0.5, "black_point": 0.1}"#)
        #expect(values == FilterValues(noiseReduction: 0.5, blackPoint: 0.1))
    }

    @Test func encodingWritesAllTwelveSnakeCaseKeys() throws {
        let data = try JSONEncoder().encode(FilterValues(noiseReduction: 0.25))
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(Set(object.keys) == Set(FilterValues.Key.allCases.map(\.rawValue)))
        #expect(object.keys.contains("noise_reduction") && object.keys.contains("black_point"))
        #expect(object["noise_reduction"] as? Double == 0.25)
    }

    @Test(arguments: 0..<20)
    func jsonRoundTripKeepsEveryValue(seed: Int) throws {
        let values = TestFrames.randomValues(seed: UInt64(seed) + 1000)
        let decoded = try JSONDecoder().decode(FilterValues.self, from: try JSONEncoder().encode(values))
        // The legacy rules rewrite neutral and all-zero values on decoding: no seed here may draw them.
        try #require(!values.isNeutral && !FilterValues.Key.allCases.allSatisfy({ values[$0] == 0 }), "seed \(seed)")
        #expect(decoded == values)
    }

    @Test func samplePresetsIncludeTheDocumentedLooks() throws {
        let byName = Dictionary(uniqueKeysWithValues: TestFrames.samplePresets.map { ($0.name, $0) })
        for name in ["neutral", "warm-film", "cool-teal", "noir", "faded", "dreamy", "crisp", "night", "legacy-zero"] {
            let preset = try #require(byName[name], "missing preset \(name)")
            #expect(!preset.description.isEmpty, "\(name) has no description")
        }
        #expect(byName["neutral"]!.values.isNeutral)
        #expect(byName["legacy-zero"]!.values.isNeutral)
        #expect(byName["noir"]!.values.saturation == 0)
        #expect(byName["faded"]!.values.blackPoint > 0 && byName["faded"]!.values.contrast < 1)
        let dreamy = byName["dreamy"]!.values
        #expect(dreamy.blur > 0 && dreamy.vignette > 0 && dreamy.highlights != 0)
        #expect(byName["crisp"]!.values.sharpness > 0 && byName["crisp"]!.values.contrast > 1)
        let night = byName["night"]!.values
        #expect(night.exposure > 0 && night.noiseReduction > 0 && night.temperature != 6500)
    }
}

@Suite struct PresetParsingTests {
    @Test func aPresetFileWithNameDescriptionAndValuesParses() throws {
        let preset = try Preset.parse(Array(#"{"name": "x", "description": "d", "values": {"blur": 2}}"#.utf8))
        #expect(preset == Preset(name: "x", description: "d", values: FilterValues(blur: 2)))
    }

    @Test func aBareValuesObjectIsAcceptedWithTheFallbackName() throws {
        let preset = try Preset.parse(Array(#"{"contrast": 2}"#.utf8), fallbackName: "look")
        #expect(preset.name == "look")
        #expect(preset.values.contrast == 2)
    }

    @Test func aStringForANumberIsAnErrorNamingTheKey() {
        #expect(throws: PresetError.self) { try Preset.parse(Array(#"{"values": {"contrast": "high"}}"#.utf8)) }
        let report = PresetCheck.check(Array(#"{"values": {"contrast": "high", "blur": true, "shadows": 0.5}}"#.utf8))
        #expect(!report.isValid)
        let errors = report.problems.filter { $0.severity == .error }
        #expect(errors.map(\.key) == ["values.blur", "values.contrast"])
        #expect(errors[1].message.contains("expected a number in 0…4, found a string"))
    }

    @Test func invalidJSONIsReported() {
        let report = PresetCheck.check(Array("{\"values\": ".utf8))
        #expect(!report.isValid)
        #expect(report.problems.first?.message.hasPrefix("not valid JSON") == true)
    }

    @Test func aPresetThatIsNotJSONSaysSoOnce() throws {
        do {
            _ = try Preset.parse(Array("{\"values\": ".utf8))
            Issue.record("a truncated preset parsed")
        } catch {
            let text = "\(error)"
            #expect(text.hasPrefix("not valid JSON: "))
            #expect(text.components(separatedBy: "not valid JSON").count == 2)
            #expect(text.contains("end of file"))  // says what is wrong, not only that something is
        }
    }

    @Test func unknownKeysAndOutOfRangeValuesAreWarningsNotErrors() {
        let report = PresetCheck.check(Array(#"{"values": {"noiseReduction": 0.5, "blur": 30}}"#.utf8))
        #expect(report.isValid)
        #expect(report.problems.map(\.severity) == [.warning, .warning])
        #expect(report.problems.contains { $0.message.contains("did you mean \"noise_reduction\"") })
        #expect(report.problems.contains { $0.message == "30 is outside 0…20, clamped to 20" })
    }

    /// Valid JSON a preset cannot hold: each is an error saying what is wrong and where, not "not valid JSON".
    @Test func aNumberBeyondADoubleIsOutOfRangeNotInvalidJSON() {
        let report = PresetCheck.check(Array("{\"values\": {\n  \"brightness\": 1e309}}".utf8))
        #expect(!report.isValid)
        let problem = report.problems.first
        #expect(problem?.key == "values.brightness")
        #expect(problem?.message.hasPrefix("1e309 is out of the range of a number") == true, "\(report.problems)")
        #expect(problem?.message.contains("at line 2 column 17") == true, "\(report.problems)")
        #expect(!(problem?.description.contains("not valid JSON") ?? true))
    }

    @Test func aLoneSurrogateIsNamedWithItsLineAndColumn() {
        let report = PresetCheck.check(Array("{\n  \"name\": \"look\",\n  \"description\": \"\\ud800\"}".utf8))
        #expect(
            report.problems.map(\.description) == [
                "error: description: a lone surrogate \\ud800 at line 3 column 19 (half of a UTF-16 pair is not a character)"
            ])
        #expect(throws: PresetError.self) { try Preset.parse(Array("[\"\\udfff\"]".utf8)) }
    }

    @Test func aDuplicateKeyIsAnErrorNamingItAndItsLine() {
        let report = PresetCheck.check(Array("{\"values\": {\n  \"contrast\": 1.2,\n  \"contrast\": 0.8}}".utf8))
        #expect(
            report.problems.map(\.description) == [
                "error: values.contrast: duplicate key at line 3 (first at line 2); a key may appear only once"
            ])
        do {
            _ = try Preset.parse(Array("{\"name\": \"a\", \"name\": \"b\"}".utf8))
            Issue.record("a preset with two names parsed")
        } catch {
            #expect(error.description == "name: duplicate key at line 1 (first at line 1); a key may appear only once")
        }
    }
}
