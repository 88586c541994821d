import Foundation

/// The threads the renderers under test may use: every core, as the CLI gives them (the output does not depend
/// on it; `RenderPathTests` checks that).
let allCores = ProcessInfo.processInfo.activeProcessorCount
