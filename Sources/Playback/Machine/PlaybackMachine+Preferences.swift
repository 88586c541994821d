/// The user's choices, remembered in every state before the state itself reacts.
extension PlaybackMachine {
    /// Records what an event says about the user's wishes, and turns an orientation change into the full-screen
    /// effect. Nothing here touches the position, the buffer or the loads.
    mutating func rememberPreferences(_ event: Event, _ effects: inout [Effect]) {
        switch event {
        case .play:
            preferences.wantsToPlay = true
        case .pause:
            preferences.wantsToPlay = false
        case .orientationChanged(let viewport):
            let previous = preferences.viewport?.orientation ?? .portrait
            preferences.viewport = viewport
            if configuration.fullScreenInLandscape, viewport.orientation != previous {
                effects.append(viewport.orientation == .landscape ? .presentFullScreen : .exitFullScreen)
            }
        case .qualityRequested(let choice):
            if case .fixed(let index) = choice, let ladder = knownStream?.variants, !ladder.indices.contains(index) {
                return  // No such variant: ignored.
            }
            preferences.quality = choice
        case .subtitleSelected(let choice):
            preferences.subtitles = choice
        case .audioSelected(let language):
            preferences.audioLanguage = language
        case .rateChanged(let rate):
            if rate.isFinite, rate > 0 { preferences.rate = rate }
        case .load, .playlistLoaded, .playlistLoadFailed, .segmentLoaded, .segmentLoadFailed, .segmentProgress, .tick,
            .seek,
            .networkLost, .networkRestored, .timerFired:
            break
        }
    }

    /// The ladder, once the multivariant (or single media) playlist is known.
    var knownStream: StreamDescription? {
        if case .loading(let loading) = state { return loading.stream }
        return state.session?.stream
    }
}
