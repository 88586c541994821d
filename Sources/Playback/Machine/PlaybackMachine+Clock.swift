/// Time passing, and the moves between start-up, playing, stalled, seeking and ended that follow from the
/// buffer level.
extension PlaybackMachine {
    /// Advances the playhead while playing (never past the buffer), counts waiting time, and notices a stall or
    /// the end of the stream.
    mutating func advanceClock(_ active: inout Active, elapsedSeconds: Double, _ effects: inout [Effect]) {
        switch active.phase {
        case .playing:
            let wanted = elapsedSeconds * preferences.rate
            let available = active.session.bufferSeconds
            if wanted < available {
                active.session.positionSeconds += wanted
                return
            }
            active.session.positionSeconds = max(active.session.positionSeconds, active.session.bufferedUntilSeconds)
            if isFullyBuffered(active.session) {
                active.phase = .ended
                cancelLoads(&active.session, &effects)
                effects.append(.report(.ended(atSeconds: active.session.positionSeconds)))
            } else {
                active.phase = .rebuffering
                active.session.waitedSeconds = (wanted - available) / preferences.rate
                effects.append(.report(.stallStarted(atSeconds: active.session.positionSeconds, cause: .bufferEmpty)))
            }
        case .startupBuffering, .rebuffering, .seeking:
            active.session.waitedSeconds += elapsedSeconds
        case .paused, .ended, .idle, .loading, .failed:
            break
        }
    }

    /// Leaves start-up, a stall or a seek once enough is buffered (or the rest of the stream is).
    mutating func settle(_ active: inout Active, _ effects: inout [Effect]) {
        let session = active.session
        let readyPhase: Phase = preferences.wantsToPlay ? .playing : .paused
        switch active.phase {
        case .startupBuffering where isReady(session, bufferSeconds: configuration.startupBufferSeconds):
            effects.append(
                .report(.playbackStarted(atSeconds: session.positionSeconds, startupSeconds: session.waitedSeconds)))
            active.phase = readyPhase
            active.session.waitedSeconds = 0
        case .rebuffering where isReady(session, bufferSeconds: configuration.resumeBufferSeconds):
            effects.append(.report(.stallEnded(atSeconds: session.positionSeconds, durationSeconds: session.waitedSeconds)))
            active.phase = readyPhase
            active.session.waitedSeconds = 0
        case .seeking where isReady(session, bufferSeconds: configuration.resumeBufferSeconds):
            effects.append(.report(.seekCompleted(atSeconds: session.positionSeconds)))
            active.phase = readyPhase
            active.session.waitedSeconds = 0
        default:
            break
        }
    }

    /// Enough is buffered to play on: `bufferSeconds` (at most the buffer limit), or everything up to the end.
    func isReady(_ session: Session, bufferSeconds: Double) -> Bool {
        let needed = min(bufferSeconds, configuration.maxBufferSeconds)
        return session.bufferSeconds >= needed - TimelineSegment.boundaryTolerance || isFullyBuffered(session)
    }

    /// The buffer reaches the end of a finished (EXT-X-ENDLIST) stream: nothing more to load.
    func isFullyBuffered(_ session: Session) -> Bool {
        guard let timeline = session.timeline, timeline.hasEndList else { return false }
        return session.bufferedUntilSeconds >= timeline.endSeconds - TimelineSegment.boundaryTolerance
    }
}
