/// The segment loader: which segment comes next, from which variant, and what its arrival or failure means.
extension PlaybackMachine {
    /// Requests the next segment when the loader is free, the network is up and the buffer is below its limit.
    ///
    /// The next segment is the one of the chosen variant that holds the media time where the buffer ends
    /// (never "the next index"), so an automatic switch keeps everything buffered and continues at the same
    /// media time. A variant whose playlist is not known (or, live, not being reloaded) is loaded first.
    ///
    /// - Parameter forcing: the variant to use without asking the selector (used to finish a stream on a lower
    ///   variant when the chosen one ends earlier).
    mutating func fillBuffer(_ active: inout Active, _ effects: inout [Effect], forcing: Int? = nil) {
        guard active.failure == nil, active.phase != .ended, isNetworkAvailable, active.session.segment == .idle,
            active.session.bufferSeconds < configuration.loadLimitCeilingSeconds
        else { return }
        var session = active.session
        let bufferEnd = session.bufferedUntilSeconds
        let target: Int
        let reason: String
        if let forcing {
            target = forcing
            reason = "the chosen variant ends earlier"
        } else {
            guard let current = session.timeline, let next = current.nextSegmentIndex(after: bufferEnd) else {
                return  // The end of a VOD stream, or a live edge waiting for the next reload.
            }
            let selection = select(session, phase: active.phase, timeline: current, segmentIndex: next)
            target = selection.variantIndex
            reason = selection.reason
        }
        let bandwidth = session.stream.variantInfos[target].bandwidthBitsPerSecond
        guard session.bufferSeconds < configuration.loadLimitSeconds(bandwidthBitsPerSecond: bandwidth) else { return }
        guard isUsable(target, session) else {
            requestVariantPlaylist(target, &session, &effects)
            active.session = session
            return
        }
        guard let timeline = session.timelines[target], var index = timeline.nextSegmentIndex(after: bufferEnd) else {
            // Nothing more in the chosen variant. Live: wait for the next reload. VOD: a lower variant that
            // lasts longer finishes the stream; if none does, the stream ends where the chosen one ends.
            guard forcing == nil, session.timelines[target]?.hasEndList == true else { return }
            let lower = (0..<target).reversed().first { variant in
                isUsable(variant, session) && session.timelines[variant]?.nextSegmentIndex(after: bufferEnd) != nil
            }
            if let lower {
                fillBuffer(&active, &effects, forcing: lower)
            } else {
                active.session.variantIndex = target
            }
            return
        }
        if timeline.segments[index].startSeconds > bufferEnd + configuration.maxGapSeconds {
            // The live window slid past the buffer (or the media has a hole): move on, and say so.
            let resumeAt =
                timeline.isLive
                ? max(timeline.segments[index].startSeconds, timeline.playbackStartSeconds)
                : timeline.segments[index].startSeconds
            effects.append(.report(.positionResynced(fromSeconds: session.positionSeconds, toSeconds: resumeAt)))
            session.positionSeconds = resumeAt
            session.bufferedUntilSeconds = resumeAt
            session.bufferedVariants = []
            index = timeline.nextSegmentIndex(after: resumeAt) ?? index
        }
        let segment = timeline.segments[index]
        if session.lastRequestedVariant != target {
            let kind = session.pendingSwitchKind ?? (session.lastRequestedVariant == nil ? .initial : .seamless)
            effects.append(
                .report(
                    .variantSwitched(
                        from: session.lastRequestedVariant, to: target, atSeconds: session.bufferedUntilSeconds,
                        kind: kind, reason: reason)))
        }
        session.pendingSwitchKind = nil
        let request = SegmentRequest(
            id: makeID(), variantIndex: target, mediaSequence: segment.mediaSequence, uri: segment.uri,
            playlistURL: session.stream.variants[target].uri, byteRange: segment.byteRange,
            startSeconds: segment.startSeconds, durationSeconds: segment.durationSeconds)
        session.variantIndex = target
        session.lastRequestedVariant = target
        session.segment = .loading(request, attempt: 0)
        effects.append(.loadSegment(request))
        if let interval = selector.loadCheckIntervalSeconds {
            effects.append(.reportLoadProgress(request.id, everySeconds: interval))
        }
        active.session = session
    }

    /// Asks the selector for the variant of segment `segmentIndex` of the current timeline, then applies the
    /// step-down cap left by repeated failures.
    mutating func select(_ session: Session, phase: Phase, timeline: MediaTimeline, segmentIndex: Int) -> Selection {
        var selection = selector.select(
            selectionInput(session, phase: phase, timeline: timeline, segmentIndex: segmentIndex))
        selection.variantIndex = min(max(selection.variantIndex, 0), session.stream.variants.count - 1)
        if let cap = session.failureCapIndex, selection.variantIndex > cap {
            selection = Selection(variantIndex: cap, reason: "\(selection.reason); capped after failures")
        }
        return selection
    }

    /// What the selector is told about segment `segmentIndex` of `timeline`, now.
    private func selectionInput(_ session: Session, phase: Phase, timeline: MediaTimeline, segmentIndex: Int)
        -> SelectionInput
    {
        var input = SelectionInput(
            variants: session.stream.variantInfos, segmentIndex: segmentIndex,
            segmentDurationSeconds: timeline.segments[segmentIndex].durationSeconds,
            upcomingSegmentBytes: upcomingSegmentBytes(session, timeline: timeline, from: segmentIndex),
            estimator: estimator,
            bufferSeconds: session.bufferSeconds, maxBufferSeconds: configuration.maxBufferSeconds,
            previousVariantIndex: session.lastRequestedVariant, viewport: preferences.viewport,
            userChoice: preferences.quality, isStartup: phase == .startupBuffering)
        input.firstListedVariantIndex = session.stream.firstListedIndex
        return input
    }

    /// Sizes of the next segments in every variant, matched by media time, for as many segments as every
    /// variant's playlist knows the size of.
    private func upcomingSegmentBytes(_ session: Session, timeline: MediaTimeline, from first: Int) -> [[Int]] {
        var rows: [[Int]] = []
        for index in first..<min(first + configuration.lookAheadSegments, timeline.segments.count) {
            let segment = timeline.segments[index]
            let middle = segment.startSeconds + segment.durationSeconds / 2
            var row: [Int] = []
            for variant in session.stream.variants.indices {
                guard let other = session.timelines[variant], let match = other.segmentIndex(containing: middle),
                    let size = other.segments[match].sizeBytes
                else { return rows }
                row.append(size)
            }
            rows.append(row)
        }
        return rows
    }

    /// True when segments of `variant` can be requested now: its playlist is known, and for a live stream it is
    /// the playlist being kept fresh.
    private func isUsable(_ variant: Int, _ session: Session) -> Bool {
        guard let timeline = session.timelines[variant] else { return false }
        guard timeline.isLive else { return true }
        switch session.playlist {
        case .loading(let request, _), .retryScheduled(_, let request, _), .reloadScheduled(_, let request),
            .waitingForNetwork(let request, _):
            return request.variantIndex == variant
        case .idle:
            return false
        }
    }

    /// Loads the media playlist of `variant` before switching to it.
    private mutating func requestVariantPlaylist(_ variant: Int, _ session: inout Session, _ effects: inout [Effect]) {
        cancelPlaylistLoad(&session.playlist, &effects)
        let request = PlaylistRequest(
            id: .unassigned, url: session.stream.variants[variant].uri, parentURL: session.url, variantIndex: variant)
        issue(request, attempt: 0, into: &session.playlist, &effects)
        session.segment = .awaitingPlaylist(variantIndex: variant)
    }

    // MARK: - Arrivals and failures

    mutating func segmentArrived(
        _ active: inout Active, id: RequestID, _ download: SegmentDownload, _ effects: inout [Effect]
    ) {
        guard case .loading(let request, _) = active.session.segment, request.id == id else { return }
        if download.bytes > 0, download.downloadSeconds > 0 {
            estimator.record(
                bytes: download.bytes, durationSeconds: download.downloadSeconds,
                timeToFirstByteSeconds: max(0, download.timeToFirstByteSeconds))
            selector.segmentLoaded(
                LoadProgress(
                    variantIndex: request.variantIndex,
                    segmentIndex: segmentIndex(of: request, active.session) ?? 0,
                    segmentDurationSeconds: request.durationSeconds, bytesLoaded: download.bytes,
                    elapsedSeconds: download.downloadSeconds,
                    timeToFirstByteSeconds: max(0, download.timeToFirstByteSeconds),
                    mediaIsPlaying: mediaIsPlaying(active.phase)))
        }
        active.session.segment = .idle
        active.session.bufferedUntilSeconds = max(active.session.bufferedUntilSeconds, request.endSeconds)
        active.session.bufferedVariants.insert(request.variantIndex)
        settle(&active, &effects)
        fillBuffer(&active, &effects)
    }

    /// A load in flight has come this far: the rule may abandon it for a lower variant (an emergency switch).
    mutating func segmentProgressed(
        _ active: inout Active, id: RequestID, _ progress: SegmentProgress, _ effects: inout [Effect]
    ) {
        guard case .loading(let request, _) = active.session.segment, request.id == id,
            let timeline = active.session.timelines[request.variantIndex],
            let index = segmentIndex(of: request, active.session)
        else { return }
        let load = LoadProgress(
            variantIndex: request.variantIndex, segmentIndex: index, segmentDurationSeconds: request.durationSeconds,
            bytesLoaded: progress.bytesLoaded, elapsedSeconds: progress.elapsedSeconds,
            timeToFirstByteSeconds: progress.timeToFirstByteSeconds, mediaIsPlaying: mediaIsPlaying(active.phase))
        let input = selectionInput(active.session, phase: active.phase, timeline: timeline, segmentIndex: index)
        guard let emergency = selector.checkLoad(input, progress: load) else { return }
        effects.append(.cancelLoad(id))
        effects.append(
            .report(
                .segmentAbandoned(
                    variantIndex: request.variantIndex, mediaSequence: request.mediaSequence,
                    bytesLoaded: progress.bytesLoaded, reason: emergency.reason)))
        active.session.segment = .idle
        active.session.pendingSwitchKind = .emergency
        fillBuffer(&active, &effects)
    }

    /// True while a media element would be playing: past start-up and not paused (a stall counts).
    private func mediaIsPlaying(_ phase: Phase) -> Bool {
        phase == .playing || phase == .rebuffering
    }

    /// The index of the requested segment in its variant's timeline.
    private func segmentIndex(of request: SegmentRequest, _ session: Session) -> Int? {
        session.timelines[request.variantIndex]?.segmentIndex(mediaSequence: request.mediaSequence)
    }

    mutating func segmentFailed(_ active: inout Active, id: RequestID, statusCode: Int?, _ effects: inout [Effect]) {
        guard case .loading(let request, let attempt) = active.session.segment, request.id == id else { return }
        let attempts = attempt + 1
        if attempts <= configuration.segmentRetryLimit {
            let timer = makeID()
            active.session.segment = .retryScheduled(timer: timer, request, attempt: attempts)
            effects.append(
                .report(
                    .segmentRetried(
                        variantIndex: request.variantIndex, mediaSequence: request.mediaSequence, attempt: attempts,
                        statusCode: statusCode)))
            effects.append(.scheduleRetry(TimerRequest(id: timer, afterSeconds: retryDelay(attempt: attempts))))
            return
        }
        active.session.segment = .idle
        guard request.variantIndex > 0 else {
            active.failure = .segmentUnavailable(url: request.uri, statusCode: statusCode, attempts: attempts)
            return
        }
        let cap = min(request.variantIndex - 1, active.session.failureCapIndex ?? Int.max)
        active.session.failureCapIndex = cap
        active.session.pendingSwitchKind = .stepDown
        effects.append(.report(.steppedDown(variantIndex: request.variantIndex, capIndex: cap, statusCode: statusCode)))
        fillBuffer(&active, &effects)
    }

    /// When a retry timer fires, asks for the next segment again: the same request (under a new id, keeping
    /// its attempt count) unless the selector now wants another variant (the phone rotated, the user picked a
    /// quality) or a live window moved on.
    mutating func retrySegment(
        _ active: inout Active, _ request: SegmentRequest, attempt: Int, _ effects: inout [Effect]
    ) {
        fillBuffer(&active, &effects)
        if case .loading(let fresh, 0) = active.session.segment, fresh.variantIndex == request.variantIndex,
            fresh.mediaSequence == request.mediaSequence
        {
            active.session.segment = .loading(fresh, attempt: attempt)
        }
    }
}
