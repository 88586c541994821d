/// From `load` to the first media playlist, and the playlist loader shared with the session.
extension PlaybackMachine {
    /// Starts over with a new URL from any state, cancelling whatever was in flight.
    mutating func startLoading(_ url: String, _ effects: inout [Effect]) {
        if case .loading(var loading) = state {
            cancelPlaylistLoad(&loading.playlist, &effects)
        } else if var session = state.session {
            cancelLoads(&session, &effects)
        }
        var slot = PlaylistSlot.idle
        issue(PlaylistRequest(id: .unassigned, url: url), attempt: 0, into: &slot, &effects)
        state = .loading(Loading(url: url, stream: nil, playlist: slot))
    }

    mutating func handleLoading(_ loading: inout Loading, _ event: Event, _ effects: inout [Effect]) -> State {
        switch event {
        case .tick(let elapsed):
            if elapsed.isFinite, elapsed > 0 { loading.waitedSeconds += elapsed }
        case .seek(let target):
            if target.isFinite { loading.requestedStartSeconds = target }
        default:
            break
        }
        switch advancePlaylist(&loading.playlist, event, &effects) {
        case .nothing:
            return .loading(loading)
        case .failed(let reason):
            effects.append(.report(.failed(reason)))
            return .failed(Failure(reason: reason, positionSeconds: nil))
        case .loaded(let request, .multivariant(let stream)):
            guard request.variantIndex == nil, !stream.variants.isEmpty else {
                return fail(.unplayablePlaylist(url: request.url, reason: "expected a media playlist"), &effects)
            }
            loading.stream = stream
            forgetImpossibleQualityChoice(stream)
            let index = initialVariant(of: stream)
            let variant = stream.variants[index]
            if let timeline = variant.timeline {
                let variantRequest = PlaylistRequest(
                    id: request.id, url: variant.uri, parentURL: loading.url, variantIndex: index)
                return startSession(
                    loading, stream: stream, variantIndex: index, timeline: timeline, request: variantRequest, &effects)
            }
            let next = PlaylistRequest(id: .unassigned, url: variant.uri, parentURL: loading.url, variantIndex: index)
            issue(next, attempt: 0, into: &loading.playlist, &effects)
            return .loading(loading)
        case .loaded(let request, .media(let timeline)):
            if timeline.segments.isEmpty, timeline.hasEndList {
                return fail(.unplayablePlaylist(url: request.url, reason: "no segments"), &effects)
            }
            let stream = loading.stream ?? .single(uri: loading.url)
            var variantRequest = request
            variantRequest.variantIndex = request.variantIndex ?? 0
            return startSession(
                loading, stream: stream, variantIndex: variantRequest.variantIndex ?? 0, timeline: timeline,
                request: variantRequest, &effects)
        }
    }

    private func fail(_ reason: PlaybackFailure, _ effects: inout [Effect]) -> State {
        effects.append(.report(.failed(reason)))
        return .failed(Failure(reason: reason, positionSeconds: nil))
    }

    /// The variant of the first segment, chosen before any media playlist is known.
    private mutating func initialVariant(of stream: StreamDescription) -> Int {
        let known = stream.variants.compactMap(\.timeline).first
        var input = SelectionInput(
            variants: stream.variantInfos, segmentIndex: 0,
            segmentDurationSeconds: known?.segments.first?.durationSeconds
                ?? configuration.assumedSegmentDurationSeconds,
            estimator: estimator, bufferSeconds: 0,
            maxBufferSeconds: configuration.maxBufferSeconds, previousVariantIndex: nil, viewport: preferences.viewport,
            userChoice: preferences.quality, isStartup: true)
        input.firstListedVariantIndex = stream.firstListedIndex
        let selection = selector.select(input)
        return min(max(selection.variantIndex, 0), stream.variants.count - 1)
    }

    /// A quality picked before the ladder was known that names no variant falls back to `auto`.
    private mutating func forgetImpossibleQualityChoice(_ stream: StreamDescription) {
        if case .fixed(let index) = preferences.quality, !stream.variants.indices.contains(index) {
            preferences.quality = .auto
        }
    }

    /// The first media playlist is in: place the playhead and start buffering.
    private mutating func startSession(
        _ loading: Loading, stream: StreamDescription, variantIndex: Int, timeline: MediaTimeline,
        request: PlaylistRequest, _ effects: inout [Effect]
    ) -> State {
        forgetImpossibleQualityChoice(stream)
        var timelines = [variantIndex: timeline]
        for variant in stream.variants where variant.info.index != variantIndex {
            if let other = variant.timeline {
                timelines[variant.info.index] = timeline.aligned(other, sameRendition: false).timeline
            }
        }
        let start =
            loading.requestedStartSeconds.map { timeline.clampedSeekTarget($0) } ?? timeline.playbackStartSeconds
        var session = Session(
            url: loading.url, stream: stream, timelines: timelines, variantIndex: variantIndex, positionSeconds: start,
            bufferedUntilSeconds: start, waitedSeconds: loading.waitedSeconds)
        session.pendingSwitchKind = .initial
        if timeline.isLive { scheduleReload(request, changed: true, timeline: timeline, &session, &effects) }
        var active = Active(phase: .startupBuffering, session: session)
        fillBuffer(&active, &effects)
        return conclude(active, &effects)
    }

    // MARK: - The playlist loader

    /// What the playlist loader made of an event.
    enum PlaylistOutcome {
        case nothing
        case loaded(PlaylistRequest, LoadedPlaylist)
        case failed(PlaybackFailure)
    }

    /// Moves the playlist slot on: matches answers to the request in flight, retries failures with backoff,
    /// sends requests when their timer fires or the network returns, and parks them while the network is down.
    mutating func advancePlaylist(_ slot: inout PlaylistSlot, _ event: Event, _ effects: inout [Effect])
        -> PlaylistOutcome
    {
        switch (event, slot) {
        case (.playlistLoaded(let id, let content), .loading(let request, _)) where request.id == id:
            slot = .idle
            return .loaded(request, content)
        case (.playlistLoadFailed(let id, let status), .loading(let request, let attempt)) where request.id == id:
            let attempts = attempt + 1
            guard attempts <= configuration.playlistRetryLimit else {
                slot = .idle
                return .failed(.playlistUnavailable(url: request.url, statusCode: status, attempts: attempts))
            }
            let timer = makeID()
            slot = .retryScheduled(timer: timer, request, attempt: attempts)
            effects.append(.report(.playlistRetried(url: request.url, attempt: attempts, statusCode: status)))
            effects.append(.scheduleRetry(TimerRequest(id: timer, afterSeconds: retryDelay(attempt: attempts))))
        case (.timerFired(let id), .retryScheduled(let timer, let request, let attempt)) where timer == id:
            issue(request, attempt: attempt, into: &slot, &effects)
        case (.timerFired(let id), .reloadScheduled(let timer, let request)) where timer == id:
            issue(request, attempt: 0, into: &slot, &effects)
        case (.networkLost, .loading(let request, let attempt)):
            effects.append(.cancelLoad(request.id))
            slot = .waitingForNetwork(request, attempt: attempt)
        case (.networkRestored, .waitingForNetwork(let request, let attempt)):
            issue(request, attempt: attempt, into: &slot, &effects)
        default:
            break
        }
        return .nothing
    }

    /// Sends `request` under a new id, or parks it until the network is back.
    mutating func issue(
        _ request: PlaylistRequest, attempt: Int, into slot: inout PlaylistSlot, _ effects: inout [Effect]
    ) {
        guard isNetworkAvailable else {
            slot = .waitingForNetwork(request, attempt: attempt)
            return
        }
        var fresh = request
        fresh.id = makeID()
        slot = .loading(fresh, attempt: attempt)
        effects.append(.loadPlaylist(fresh))
    }

    /// Abandons the playlist request in flight, if any; timers left running are ignored when they fire.
    func cancelPlaylistLoad(_ slot: inout PlaylistSlot, _ effects: inout [Effect]) {
        if case .loading(let request, _) = slot { effects.append(.cancelLoad(request.id)) }
        slot = .idle
    }

    /// Waits one target duration (half when nothing changed) before reloading a live playlist.
    mutating func scheduleReload(
        _ request: PlaylistRequest, changed: Bool, timeline: MediaTimeline, _ session: inout Session,
        _ effects: inout [Effect]
    ) {
        let timer = makeID()
        session.playlist = .reloadScheduled(timer: timer, request)
        effects.append(
            .scheduleReload(TimerRequest(id: timer, afterSeconds: timeline.reloadDelaySeconds(changed: changed))))
    }

    /// Backoff before retry number `attempt` (from 1).
    func retryDelay(attempt: Int) -> Double {
        let exponent = Double(max(0, min(attempt - 1, 30)))
        return min(configuration.retryMaxDelaySeconds, configuration.retryBaseDelaySeconds * pow2(exponent))
    }

    private func pow2(_ exponent: Double) -> Double {
        var value = 1.0
        for _ in 0..<Int(exponent) { value *= 2 }
        return value
    }
}

extension MediaTimeline {
    /// A seek target moved inside the listed segments (just before the end, so a segment still holds it).
    func clampedSeekTarget(_ seconds: Double) -> Double {
        let latest = max(startSeconds, endSeconds - 2 * TimelineSegment.boundaryTolerance)
        return min(max(seconds, startSeconds), latest)
    }
}
