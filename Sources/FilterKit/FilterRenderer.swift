import Parallel

/// Applies one set of `FilterValues` to frames: the one renderer for stills, previews and video.
///
///     let renderer = FilterRenderer(values: preset.values, threads: .callingThread)
///     let filtered = renderer.renderImage(photo)                 // a still
///     renderer.renderFrame(cameraFrame, into: &encoderFrame)     // video: reuses the output buffers
///
/// Both calls run the same code (`render(_:into:)`). Frames are `.rgba` (the working format) or `.yuv420p`
/// (BT.709 limited range, converted to RGBA on the way in and back on the way out; the output has the
/// input's format and size). The neutral preset returns the input unchanged, bit for bit, without reading
/// a pixel.
///
/// Two paths compute the same function (`ColourTransform` + `SpatialSteps`):
/// - `.reference`: `Double` per pixel, direct window sums — obviously correct and slow, the yardstick;
/// - `.fast`: the colour steps fused into a `ColourLUT` (built once here, per preset, see `ColourMethod`), the
///   spatial steps as running-sum passes on `SIMD4<Float>` pixels, split by rows across the threads the caller lends.
///   Presets with colour steps switch to an `ExactByteTable` once it pays (see `ByteTableUse`): same
///   output, one table load per pixel.
/// Tests hold them within ±1 code value on ≥ 99.9 % of samples and ±2 on all.
public struct FilterRenderer: Sendable {
    public enum Path: String, Sendable { case fast, reference }

    public let values: FilterValues
    public let path: Path
    /// The threads the fast path may use, lent by the caller (`.callingThread`: none but the caller's).
    public let threads: LentThreads
    let transform: ColourTransform
    /// How the fast path applies the colour steps, with the tables it needs.
    let colourStep: ColourStep
    /// Frame-sized work buffers kept between frames (shared by copies of this renderer).
    let scratch = ScratchPool()
    /// When a colour-only frame is mapped through the `ExactByteTable` instead of the per-pixel pass.
    let byteTable: ByteTableUse
    /// The exact byte table, built on first use (shared by copies of this renderer).
    let byteTableCache = ExactByteTableCache()
    /// With a blur, the fast path renders a frame of more pixels in sections of about this many (`BlurSections`),
    /// so a large photo's work buffer stays near 50 MB; the bytes do not depend on it.
    var sectionPixels = 1 << 22

    /// When the fast path maps a frame's colours through a table of the colour step's output for all 2²⁴
    /// input colours (`ExactByteTable`, 64 MB, filled on demand: the colour step then runs once per distinct
    /// colour). The table gives the same output as the per-pixel pass (it is filled by that pass), so this
    /// changes speed only.
    @_spi(Benchmarks) public enum ByteTableUse: String, Sendable {
        /// Once this renderer has rendered 2²² pixels (this frame included): about 4.5 frames of 720p video,
        /// or one still that large. Setting up the table then costs at most what was already spent.
        case whenItPays
        /// For every frame.
        case always
        /// Never: always the per-pixel pass.
        case never
    }

    /// Whether the exact byte table has been set up (see `ByteTableUse`), for reports.
    @_spi(Benchmarks) public var byteTableIsBuilt: Bool { byteTableCache.isBuilt }

    /// How the fast path applies the colour steps.
    @_spi(Benchmarks) public enum ColourMethod: String, Sendable {
        /// Nothing to do: every colour value is at its default.
        case none
        /// Trilinear interpolation in the per-preset 3D LUT of the whole chain: one lookup per pixel.
        case lookupTable
        /// The formulas per pixel in `Float` with 1D tables (`ColourPipeline`), for presets whose transform
        /// bends too sharply inside the RGB cube for the LUT (measured error above `lookupTableTolerance`):
        /// white balance or exposure mixing a bright channel into a dark one, where the sRGB encode bends.
        case perPixel
    }

    /// The chosen colour step's measured worst error in code values (fast path, colour steps only), for reports.
    @_spi(Benchmarks) public let lookupTableError: Double?

    /// The colour method the fast path uses for these values (`.perPixel` on the reference path, which
    /// evaluates the transform in `Double`).
    @_spi(Benchmarks) public var colourMethod: ColourMethod {
        switch colourStep {
        case .none: .none
        case .lookupTable: .lookupTable
        case .perPixel: .perPixel
        }
    }

    /// A LUT is used only when its measured worst error (`ColourTransform.worstError(of:)`) is at most this
    /// many code values, divided by (1 + 1.5 · sharpness) since sharpening amplifies it.
    public static let lookupTableTolerance = 0.45

    /// Prepares a renderer (for `.fast`, builds the colour LUT unless the colour steps are all neutral).
    /// - Parameter threads: the threads the fast path may use (the caller decides, typically the cores it has to
    ///   spare; FilterKit starts none of its own). The output does not depend on them.
    public init(values: FilterValues, path: Path = .fast, threads: LentThreads) {
        self.init(values: values, path: path, threads: threads, byteTable: .whenItPays)
    }

    /// `init(values:path:threads:)` with a choice of when colour-only frames use the exact byte table (the
    /// output is the same either way), for benchmarks and tests.
    @_spi(Benchmarks) public init(
        values: FilterValues, path: Path = .fast, threads: LentThreads, byteTable: ByteTableUse
    ) {
        self.values = values
        self.byteTable = byteTable
        self.path = path
        self.threads = threads
        transform = ColourTransform(values)
        guard !transform.isIdentity else {
            (colourStep, lookupTableError) = (.none, nil)
            return
        }
        guard path == .fast else {
            (colourStep, lookupTableError) = (.perPixel(ColourPipeline(transform)), nil)
            return
        }
        let tolerance = Self.lookupTableTolerance / (1 + 1.5 * values.sharpness)
        let table = ColourLUT(transform, threads: self.threads)
        let error = transform.worstError(of: LUTView(table).lookup)
        colourStep = error <= tolerance ? .lookupTable(table) : .perPixel(ColourPipeline(transform))
        lookupTableError = error
    }

    /// Renders a still picture into a new frame of the same format and size.
    public func renderImage(_ image: Frame) -> Frame {
        var output = image
        render(image, into: &output)
        return output
    }

    /// Renders one video frame into `output`, reusing its buffers when it already has the right format and
    /// size (otherwise it is replaced).
    public func renderFrame(_ frame: Frame, into output: inout Frame) {
        render(frame, into: &output)
    }

    /// Renders one video frame into a new frame.
    public func renderFrame(_ frame: Frame) -> Frame {
        var output = frame
        render(frame, into: &output)
        return output
    }

    /// The shared still/video path.
    func render(_ source: Frame, into output: inout Frame) {
        if values.isNeutral {
            output = source
            return
        }
        switch source.format {
        case .rgba:
            prepare(&output, like: source)
            renderRGBA(source.planes[0], into: &output.planes[0], width: source.width, height: source.height)
        case .yuv420p:
            var rgba = YUVConversion.toRGBA(source, threads: threads)
            var filtered = rgba
            renderRGBA(rgba.planes[0], into: &filtered.planes[0], width: source.width, height: source.height)
            rgba = filtered
            prepare(&output, like: source)
            YUV420Conversion.convert(rgba, into: &output)
        }
    }

    private func prepare(_ output: inout Frame, like source: Frame) {
        if output.format != source.format || output.width != source.width || output.height != source.height
            || output.planes.count != source.planes.count
        {
            output = source
        }
    }

    private func renderRGBA(_ source: Frame.Plane, into output: inout Frame.Plane, width: Int, height: Int) {
        switch path {
        case .reference:
            ReferenceRenderer.render(
                source, into: &output, width: width, height: height, values: values,
                transform: transform)
        case .fast:
            let entry: ExactByteTable.Entry = values.hasSpatialAdjustments ? .fine : .bytes
            let table =
                colourMethod == .none
                ? nil
                : byteTableCache.table(for: colourStep, entry: entry, pixels: width * height, use: byteTable)
            FastRenderer.render(source, into: &output, width: width, height: height, renderer: self, byteTable: table)
        }
    }
}
