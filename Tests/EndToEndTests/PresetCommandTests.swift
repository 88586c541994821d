import FilterzTestSupport
import Foundation
import RealClients
import Testing

@testable import CLIKit
@testable import FilterzCLI
@testable import Inspect

@Suite struct PresetCommandTests {
    static let presetsFolder = SharedData.sampleMedia.appendingPathComponent("presets").path

    @Test func showPrintsTheTwelveValuesOfANamedPreset() {
        let result = runFilterz(["preset", "show", "warm-film"], environment: samplePresets)
        #expect(result.code == 0, "\(result.err)")
        let lines = result.out.split(separator: "\n")
        #expect(lines.first?.hasPrefix("warm-film: ") == true)
        #expect(lines.count == 13)
        #expect(result.out.contains("* temperature       4800 K     (2000…10000, default 6500)"))
        #expect(result.out.contains("  blur              0 px       (0…20, default 0)"))
        for key in [
            "saturation", "brightness", "contrast", "exposure", "highlights", "shadows", "black_point",
            "noise_reduction", "sharpness", "vignette",
        ] {
            #expect(result.out.contains(" \(key) "), "\(key)")
        }
    }

    @Test func showAcceptsAPathAndAppliesTheLegacyRules() throws {
        let folder = try TemporaryFolder()
        let file = folder.url.appendingPathComponent("old.json")
        try Data(#"{"name": "old", "values": {"temperature": 0, "contrast": 9}}"#.utf8).write(to: file)
        let result = runFilterz(["preset", "show", file.path])
        #expect(result.code == 0)
        #expect(result.out.contains("  temperature       6500 K"))
        #expect(result.out.contains("* contrast          4 "))
    }

    @Test func valuesShowAtMostFourDecimalsWithoutTrailingZeros() {
        #expect(PresetCommand.format(0.85) == "0.85")
        #expect(PresetCommand.format(4800) == "4800")
        #expect(PresetCommand.format(-0.125) == "-0.125")
        #expect(PresetCommand.format(1.23456) == "1.2346")
        // Below the fourth decimal: a zero, not "0." (nor "-0.").
        #expect(PresetCommand.format(0.00001) == "0")
        #expect(PresetCommand.format(-0.00001) == "0")
    }

    @Test func showJSONWritesAllTwelveKeys() throws {
        let result = runFilterz(
            ["preset", "show", "--json", "legacy-zero"], environment: samplePresets)
        #expect(result.code == 0)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.out.utf8)) as? [String: Any])
        let values = try #require(object["values"] as? [String: Double])
        #expect(values.count == 12)
        #expect(values["temperature"] == 6500 && values["contrast"] == 1)
    }

    @Test func anUnknownPresetNameIsAnInputError() {
        let result = runFilterz(["preset", "show", "no-such-look"], environment: samplePresets)
        #expect(result.code == 2)
        #expect(result.err.contains("preset 'no-such-look' not found"))
    }

    @Test func checkAcceptsEverySamplePreset() throws {
        for name in try FileManager.default.contentsOfDirectory(atPath: Self.presetsFolder)
        where name.hasSuffix(".json") {
            let result = runFilterz(["preset", "check", Self.presetsFolder + "/" + name])
            #expect(result.code == 0, "\(name): \(result.err)")
            #expect(result.out.contains("valid preset"))
        }
    }

    @Test func checkNamesEveryBadKeyAndExitsOne() throws {
        let folder = try TemporaryFolder()
        let file = folder.url.appendingPathComponent("bad.json")
        try Data(#"{"name": 3, "values": {"contrast": "high", "blur": 30, "vignete": 1}}"#.utf8).write(to: file)
        let result = runFilterz(["preset", "check", file.path])
        #expect(result.code == 1)
        #expect(
            result.err.contains(
                "\(file.path): error: values.contrast: expected a number in 0…4, found a string (\"high\")"))
        #expect(result.err.contains("\(file.path): error: name: expected a string, found a number"))
        #expect(result.out.contains("\(file.path): warning: values.blur: 30 is outside 0…20, clamped to 20"))
        #expect(result.out.contains("values.vignete: unknown key"))
        #expect(result.err.contains("invalid preset (2 errors)"))
    }

    /// 1e309, a lone surrogate and a duplicate key are valid JSON: `check` says what is wrong with each, and where.
    @Test(arguments: [
        (
            "{\n  \"values\": {\"brightness\": 1e309}\n}",
            "error: values.brightness: 1e309 is out of the range of a number (±1.8e308) at line 2 column 28"
        ),
        (
            "{\n  \"name\": \"look\",\n  \"description\": \"\\ud800\"\n}",
            "error: description: a lone surrogate \\ud800 at line 3 column 19"
        ),
        (
            "{\"values\": {\n  \"blur\": 2,\n  \"blur\": 30\n}}",
            "error: values.blur: duplicate key at line 3 (first at line 2)"
        ),
    ])
    func checkExplainsValidJSONThatNoPresetCanHold(_ text: String, _ says: String) throws {
        let folder = try TemporaryFolder()
        let file = folder.url.appendingPathComponent("odd.json")
        try Data(text.utf8).write(to: file)
        let result = runFilterz(["preset", "check", file.path])
        #expect(result.code == 1)
        #expect(result.err.contains("\(file.path): \(says)"), "\(result.err)")
        #expect(!result.err.contains("not valid JSON"))
        let show = runFilterz(["preset", "show", file.path])
        #expect(show.code == 1)
        #expect(show.err.contains(String(says.dropFirst("error: ".count).prefix(30))), "\(show.err)")
    }

    @Test func checkOfAMissingFileIsAnInputError() {
        let result = runFilterz(["preset", "check", "/nonexistent/look.json"])
        #expect(result.code == 2)
        #expect(result.err.contains("/nonexistent/look.json: cannot read file"))
    }

    @Test func presetWithoutASubcommandListsShowAndCheck() {
        let result = runFilterz(["preset", "--help"])
        #expect(result.code == 0)
        #expect(result.out.contains("show") && result.out.contains("check"))
    }
}
