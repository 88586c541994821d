/// The 12 Filterz adjustment values, each kept inside its range.
///
/// Every property clamps on assignment, so a `FilterValues` can never hold an out-of-range value:
///
///     var values = FilterValues()
///     values.contrast = 8      // stored as 4, the top of 0…4
///     values.isNeutral         // false
///
/// The ranges, defaults and order of application are those of the Filterz app (see `../shared/DESIGN.md`);
/// `Key` lists them. JSON uses the app's wire format (see `FilterValues+Codable.swift`).
public struct FilterValues: Sendable, Hashable {
    /// Adds to every channel (gamma-encoded): −1…1, default 0.
    public var brightness: Double = 0 { didSet { brightness = Key.brightness.clamp(brightness) } }
    /// Multiplies linear light by 2^EV: −5…5, default 0.
    public var exposure: Double = 0 { didSet { exposure = Key.exposure.clamp(exposure) } }
    /// Scales the distance from mid-grey 0.5: 0…4, default 1.
    public var contrast: Double = 1 { didSet { contrast = Key.contrast.clamp(contrast) } }
    /// Mixes each channel with Rec. 709 luma: 0 (grey) … 2, default 1.
    public var saturation: Double = 1 { didSet { saturation = Key.saturation.clamp(saturation) } }
    /// Unsharp-mask amount on luma: 0…2, default 0.
    public var sharpness: Double = 0 { didSet { sharpness = Key.sharpness.clamp(sharpness) } }
    /// Gaussian blur standard deviation in pixels: 0…20, default 0.
    public var blur: Double = 0 { didSet { blur = Key.blur.clamp(blur) } }
    /// Radial darkening strength: 0…2, default 0.
    public var vignette: Double = 0 { didSet { vignette = Key.vignette.clamp(vignette) } }
    /// Edge-preserving smoothing strength: 0…1, default 0.
    public var noiseReduction: Double = 0 { didSet { noiseReduction = Key.noiseReduction.clamp(noiseReduction) } }
    /// Lifts (> 0) or compresses (< 0) bright tones: −1…1, default 0.
    public var highlights: Double = 0 { didSet { highlights = Key.highlights.clamp(highlights) } }
    /// Lifts dark tones: 0…1, default 0.
    public var shadows: Double = 0 { didSet { shadows = Key.shadows.clamp(shadows) } }
    /// White balance target in kelvin: 2000…10000, default 6500 (no change).
    public var temperature: Double = 6500 { didSet { temperature = Key.temperature.clamp(temperature) } }
    /// Raises black to this level, `out = bp + (1 − bp) · in`: 0…1, default 0.
    public var blackPoint: Double = 0 { didSet { blackPoint = Key.blackPoint.clamp(blackPoint) } }

    /// Every value at its default: rendering with it returns the input unchanged.
    public static let neutral = FilterValues()

    /// Values at their defaults unless given; every argument is clamped into its range.
    public init(
        brightness: Double = 0, exposure: Double = 0, contrast: Double = 1, saturation: Double = 1,
        sharpness: Double = 0, blur: Double = 0, vignette: Double = 0, noiseReduction: Double = 0,
        highlights: Double = 0, shadows: Double = 0, temperature: Double = 6500, blackPoint: Double = 0
    ) {
        self[.brightness] = brightness
        self[.exposure] = exposure
        self[.contrast] = contrast
        self[.saturation] = saturation
        self[.sharpness] = sharpness
        self[.blur] = blur
        self[.vignette] = vignette
        self[.noiseReduction] = noiseReduction
        self[.highlights] = highlights
        self[.shadows] = shadows
        self[.temperature] = temperature
        self[.blackPoint] = blackPoint
    }

    /// Reads or writes one value by key; writing clamps (NaN becomes the default).
    public subscript(key: Key) -> Double {
        get {
            switch key {
            case .brightness: brightness
            case .exposure: exposure
            case .contrast: contrast
            case .saturation: saturation
            case .sharpness: sharpness
            case .blur: blur
            case .vignette: vignette
            case .noiseReduction: noiseReduction
            case .highlights: highlights
            case .shadows: shadows
            case .temperature: temperature
            case .blackPoint: blackPoint
            }
        }
        set {
            let value = key.clamp(newValue)
            switch key {
            case .brightness: brightness = value
            case .exposure: exposure = value
            case .contrast: contrast = value
            case .saturation: saturation = value
            case .sharpness: sharpness = value
            case .blur: blur = value
            case .vignette: vignette = value
            case .noiseReduction: noiseReduction = value
            case .highlights: highlights = value
            case .shadows: shadows = value
            case .temperature: temperature = value
            case .blackPoint: blackPoint = value
            }
        }
    }

    /// True when every value is at its default.
    public var isNeutral: Bool { Key.allCases.allSatisfy { self[$0] == $0.defaultValue } }

    /// True when a per-pixel colour step (saturation … black point) is active.
    public var hasColourAdjustments: Bool {
        [Key.saturation, .brightness, .contrast, .exposure, .temperature, .highlights, .shadows, .blackPoint]
            .contains { self[$0] != $0.defaultValue }
    }

    /// True when a spatial step (noise reduction, sharpen, blur, vignette) is active.
    public var hasSpatialAdjustments: Bool {
        noiseReduction > 0 || sharpness > 0 || blur > 0 || vignette > 0
    }
}

extension FilterValues {
    /// The 12 adjustments, in the order the renderer applies them, with their wire names, ranges and defaults.
    public enum Key: String, CaseIterable, Sendable, Hashable {
        case saturation, brightness, contrast, exposure, temperature, highlights, shadows
        case blackPoint = "black_point"
        case noiseReduction = "noise_reduction"
        case sharpness, blur, vignette

        /// The closed range the app allows.
        public var range: ClosedRange<Double> {
            switch self {
            case .brightness: -1...1
            case .exposure: -5...5
            case .contrast: 0...4
            case .saturation: 0...2
            case .sharpness: 0...2
            case .blur: 0...20
            case .vignette: 0...2
            case .noiseReduction: 0...1
            case .highlights: -1...1
            case .shadows: 0...1
            case .temperature: 2000...10000
            case .blackPoint: 0...1
            }
        }

        /// The value that leaves pixels unchanged.
        public var defaultValue: Double {
            switch self {
            case .contrast, .saturation: 1
            case .temperature: 6500
            default: 0
            }
        }

        /// The range as people write it, e.g. `0…4` or `2000…10000`.
        public var rangeDescription: String { PresetCheck.format(range) }

        /// The unit shown next to the value, if any.
        public var unit: String {
            switch self {
            case .exposure: "EV"
            case .temperature: "K"
            case .blur: "px"
            default: ""
            }
        }

        /// `value` moved into `range`; NaN becomes the default.
        public func clamp(_ value: Double) -> Double {
            if value.isNaN { return defaultValue }
            return min(max(value, range.lowerBound), range.upperBound)
        }
    }
}
