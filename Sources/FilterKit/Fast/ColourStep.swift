/// The fast path's colour step and the tables it reads.
enum ColourStep: Sendable {
    case none
    case lookupTable(ColourLUT)
    case perPixel(ColourPipeline)
}
