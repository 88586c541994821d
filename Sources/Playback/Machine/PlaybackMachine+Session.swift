/// Events in the states that hold a session (start-up buffering to ended).
extension PlaybackMachine {
    mutating func handleActive(_ active: inout Active, _ event: Event, _ effects: inout [Effect]) {
        if active.phase == .ended { return }  // Terminal: only `load` (handled earlier) leaves it.
        react(&active, event, &effects)
        switch event {
        case .orientationChanged, .qualityRequested, .subtitleSelected, .audioSelected, .rateChanged:
            break  // The user's choices never change the state by themselves; the next tick will.
        default:
            // A wait that can end now ends (the buffer may also have become complete because the chosen
            // variant ends where the buffer does).
            if active.failure == nil { settle(&active, &effects) }
        }
    }

    private mutating func react(_ active: inout Active, _ event: Event, _ effects: inout [Effect]) {
        switch event {
        case .tick(let elapsed):
            guard elapsed.isFinite, elapsed > 0 else { return }
            advanceClock(&active, elapsedSeconds: elapsed, &effects)
            fillBuffer(&active, &effects)
        case .segmentLoaded(let id, let download):
            segmentArrived(&active, id: id, download, &effects)
        case .segmentLoadFailed(let id, let status):
            segmentFailed(&active, id: id, statusCode: status, &effects)
        case .segmentProgress(let id, let progress):
            segmentProgressed(&active, id: id, progress, &effects)
        case .timerFired(let id):
            if case .retryScheduled(let timer, let request, let attempt) = active.session.segment, timer == id {
                active.session.segment = .idle
                retrySegment(&active, request, attempt: attempt, &effects)
            } else {
                playlistEvent(&active, event, &effects)
            }
        case .playlistLoaded, .playlistLoadFailed:
            playlistEvent(&active, event, &effects)
        case .networkLost:
            switch active.session.segment {
            case .loading(let request, _):
                effects.append(.cancelLoad(request.id))
                active.session.segment = .idle
            case .retryScheduled:
                active.session.segment = .idle
            case .idle, .awaitingPlaylist:
                break
            }
            playlistEvent(&active, event, &effects)
        case .networkRestored:
            playlistEvent(&active, event, &effects)
        case .play:
            play(&active, &effects)
        case .pause:
            pause(&active, &effects)
        case .seek(let target):
            seek(&active, to: target, &effects)
        case .qualityRequested(let choice):
            qualityRequested(&active, choice, &effects)
        case .load, .orientationChanged, .subtitleSelected, .audioSelected, .rateChanged:
            // Preferences only (already recorded); the next selection sees the new viewport.
            break
        }
    }

    /// Playlist answers, reload and retry timers, network changes: the playlist loader, then what a new
    /// timeline means for the session.
    private mutating func playlistEvent(_ active: inout Active, _ event: Event, _ effects: inout [Effect]) {
        switch advancePlaylist(&active.session.playlist, event, &effects) {
        case .nothing:
            if case .networkRestored = event { fillBuffer(&active, &effects) }
        case .failed(let reason):
            active.failure = reason
        case .loaded(let request, .multivariant):
            active.failure = .unplayablePlaylist(url: request.url, reason: "expected a media playlist")
        case .loaded(let request, .media(let timeline)):
            mediaPlaylistArrived(&active, request, timeline, &effects)
        }
    }

    /// A media playlist (a live reload, or a variant the machine is switching to) is in: put it on the session's
    /// media-time axis, keep reloading it if live, and continue loading segments.
    private mutating func mediaPlaylistArrived(
        _ active: inout Active, _ request: PlaylistRequest, _ timeline: MediaTimeline, _ effects: inout [Effect]
    ) {
        var session = active.session
        let index = request.variantIndex ?? 0
        let previous = session.timelines[index]
        let aligned: MediaTimeline
        if let previous {
            aligned = previous.aligned(timeline, sameRendition: true).timeline
        } else if let reference = session.timeline ?? session.timelines.values.first {
            aligned = reference.aligned(timeline, sameRendition: false).timeline
        } else {
            aligned = timeline
        }
        let changed =
            previous == nil || previous?.segments.last?.mediaSequence != aligned.segments.last?.mediaSequence
            || previous?.hasEndList != aligned.hasEndList
        session.timelines[index] = aligned
        let awaited = session.segment == .awaitingPlaylist(variantIndex: index)
        if aligned.isLive, awaited || index == session.variantIndex {
            scheduleReload(request, changed: changed, timeline: aligned, &session, &effects)
        }
        active.session = session
        if awaited {
            // Ask the selector again: the viewport or the user's choice may have changed meanwhile.
            active.session.segment = .idle
        }
        fillBuffer(&active, &effects)
    }

    /// Cancels every load in flight (timers left running are ignored when they fire).
    func cancelLoads(_ session: inout Session, _ effects: inout [Effect]) {
        if case .loading(let request, _) = session.segment { effects.append(.cancelLoad(request.id)) }
        session.segment = .idle
        cancelPlaylistLoad(&session.playlist, &effects)
    }
}
