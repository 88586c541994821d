import Synchronization

/// A renderer's `ExactByteTable`, set up once it pays and then shared by every copy of the renderer.
final class ExactByteTableCache: Sendable {
    private struct State: Sendable {
        var table: ExactByteTable?
        /// Pixels rendered so far without the table.
        var pixels = 0
    }
    private let state = Mutex(State())

    /// Whether the table has been set up.
    var isBuilt: Bool { state.withLock { $0.table != nil } }

    /// Pixels a renderer colours one by one before it sets up its table: writing the table's 64 MB of
    /// `missing` entries costs about as much as colouring this many pixels per pixel, so the set-up at most
    /// doubles the colour work already done (4.5 frames of 720p, 2 of 1080p, before the frame that sets it
    /// up; a still and a few small frames never pay it).
    static let setUpAfterPixels = 1 << 22

    /// The table for a frame of `pixels` pixels, or nil for the per-pixel pass. With `.whenItPays` it is set up
    /// once the pixels this renderer coloured *before* this frame reach `setUpAfterPixels`, so a single still,
    /// however large, never pays for a table it cannot reuse. Other callers wait for the set-up, not repeat it.
    func table(
        for step: ColourStep, entry: ExactByteTable.Entry, pixels: Int,
        use: FilterRenderer.ByteTableUse
    ) -> ExactByteTable? {
        state.withLock { state in
            if let table = state.table { return table }
            defer { state.pixels += pixels }
            switch use {
            case .never: return nil
            case .whenItPays where state.pixels < Self.setUpAfterPixels: return nil
            case .always, .whenItPays:
                let built = ExactByteTable(step, entry: entry)
                state.table = built
                return built
            }
        }
    }
}
