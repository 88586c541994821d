/// Play, pause, seek and the quality menu, once a session exists. (Orientation, subtitles, audio and rate are
/// preferences only: see `rememberPreferences`.)
extension PlaybackMachine {
    mutating func play(_ active: inout Active, _ effects: inout [Effect]) {
        guard active.phase == .paused else { return }  // Elsewhere the intent alone matters.
        if isReady(active.session, bufferSeconds: configuration.resumeBufferSeconds) {
            active.phase = .playing
        } else {
            active.phase = .rebuffering
            active.session.waitedSeconds = 0
            effects.append(
                .report(.stallStarted(atSeconds: active.session.positionSeconds, cause: .resumeWithoutBuffer)))
        }
    }

    mutating func pause(_ active: inout Active, _ effects: inout [Effect]) {
        switch active.phase {
        case .playing:
            active.phase = .paused
        case .rebuffering:
            effects.append(
                .report(
                    .stallEnded(
                        atSeconds: active.session.positionSeconds, durationSeconds: active.session.waitedSeconds)))
            active.session.waitedSeconds = 0
            active.phase = .paused
        default:
            break  // Start-up and seeks end in `paused` by themselves.
        }
    }

    /// Moves the playhead. A target inside the buffer ahead keeps the buffer; anything else flushes it and
    /// loads the segment holding the target (a switch waiting for its playlist goes on at the new place).
    mutating func seek(_ active: inout Active, to requested: Double, _ effects: inout [Effect]) {
        guard requested.isFinite, let timeline = active.session.timeline else { return }
        let target = timeline.clampedSeekTarget(requested)
        var session = active.session
        if target >= session.positionSeconds, target < session.bufferedUntilSeconds - TimelineSegment.boundaryTolerance {
            session.positionSeconds = target
            active.session = session
            effects.append(.report(.seekCompleted(atSeconds: target)))
            return
        }
        flush(&session, &effects)
        session.positionSeconds = target
        session.bufferedUntilSeconds = target
        switch active.phase {
        case .startupBuffering, .seeking:
            break
        case .rebuffering:
            effects.append(
                .report(.stallEnded(atSeconds: active.session.positionSeconds, durationSeconds: session.waitedSeconds)))
            session.waitedSeconds = 0
            active.phase = .seeking
        default:
            session.waitedSeconds = 0
            active.phase = .seeking
        }
        active.session = session
        fillBuffer(&active, &effects)
    }

    /// A fixed pick flushes what is buffered from other variants and reloads at the current position; `auto`
    /// only lets the selector choose again from the next segment on.
    mutating func qualityRequested(_ active: inout Active, _ choice: QualityChoice, _ effects: inout [Effect]) {
        guard preferences.quality == choice else { return }  // Rejected (no such variant).
        guard case .fixed(let index) = choice else {
            fillBuffer(&active, &effects)
            return
        }
        var session = active.session
        let loadingOther: Bool
        switch session.segment {
        case .loading(let request, _), .retryScheduled(_, let request, _): loadingOther = request.variantIndex != index
        case .awaitingPlaylist(let variant): loadingOther = variant != index
        case .idle: loadingOther = false
        }
        let bufferedOther = !session.bufferedVariants.isSubset(of: [index])
        guard loadingOther || bufferedOther || session.lastRequestedVariant != index else { return }
        if case .awaitingPlaylist(let variant) = session.segment, variant != index {
            session.segment = .idle
            cancelPlaylistLoad(&session.playlist, &effects)
        }
        flush(&session, &effects)
        session.bufferedUntilSeconds = session.positionSeconds
        session.pendingSwitchKind = .manual
        if active.phase == .playing {
            active.phase = .rebuffering
            session.waitedSeconds = 0
            effects.append(.report(.stallStarted(atSeconds: session.positionSeconds, cause: .qualityFlush)))
        }
        active.session = session
        fillBuffer(&active, &effects)
    }

    /// Drops the buffer ahead and the segment in flight (a switch waiting for a playlist keeps waiting).
    private func flush(_ session: inout Session, _ effects: inout [Effect]) {
        switch session.segment {
        case .loading(let request, _):
            effects.append(.cancelLoad(request.id))
            session.segment = .idle
        case .retryScheduled:
            session.segment = .idle
        case .idle, .awaitingPlaylist:
            break
        }
        session.bufferedUntilSeconds = session.positionSeconds
        session.bufferedVariants = []
    }
}
