import JSON

/// hls.js's emergency switch down while a segment loads (`_abandonRulesCheck` and its `abortAndSwitch`).
extension HLSJSRule {
    public mutating func checkLoad(_ input: SelectionInput, progress: LoadProgress, allowed: ClosedRange<Int>)
        -> Selection?
    {
        let load = LoadKey(variant: progress.variantIndex, segment: progress.segmentIndex)
        let lowest = allowed.lowerBound
        let duration = progress.segmentDurationSeconds
        // A load from the lowest level is never abandoned, and it ends any forced level.
        guard progress.variantIndex > lowest else {
            forcedVariant = nil
            return nil
        }
        if let scheduled = scheduledAbort, scheduled.load == load {
            guard progress.elapsedSeconds >= scheduled.atElapsedSeconds else { return nil }
            scheduledAbort = nil
            return abortAndSwitch(input, to: scheduled.variant, allowed: allowed)
        }
        guard concludedLoad != load else { return nil }
        // A load of another level than the forced one is checked even while the media does not play.
        let blocksForcedSwitch = forcedVariant.map { $0 != progress.variantIndex } ?? false
        guard blocksForcedSwitch || progress.mediaIsPlaying else { return nil }
        let ttfbEstimate = estimator.timeToFirstByteSeconds
        // Only from half the segment's duration on.
        guard progress.elapsedSeconds > max(ttfbEstimate, duration / 2) else { return nil }

        let starvation = input.bufferSeconds
        let loaded = Double(progress.bytesLoaded)
        let firstByte = progress.bytesLoaded > 0 ? progress.timeToFirstByteSeconds : nil
        let estimate = estimator.estimateBitsPerSecond
        let variant = input.variants[progress.variantIndex]
        let expectedBytes = max(loaded, (duration * Double(variant.nominalBitsPerSecond) / 8).rounded())
        var streaming = firstByte.map { progress.elapsedSeconds - $0 } ?? progress.elapsedSeconds
        if streaming < 0.001, firstByte != nil { streaming = min(progress.elapsedSeconds, loaded * 8 / estimate) }
        let bytesPerSecond = firstByte != nil ? loaded / streaming : 0
        let remainingSeconds =
            bytesPerSecond > 0
            ? (expectedBytes - loaded) / bytesPerSecond : expectedBytes * 8 / estimate + ttfbEstimate
        // It arrives before the buffer runs out: nothing to do.
        guard remainingSeconds > starvation else { return nil }

        // The highest lower level whose segment would arrive before the buffer runs out (and within one
        // segment duration), at the rate this load is getting.
        let rate = bytesPerSecond > 0 ? bytesPerSecond * 8 : estimate
        var lowerSeconds = Double.infinity
        var next = progress.variantIndex - 1
        while next > lowest {
            let known = knownPlaylists.contains(next)
            lowerSeconds =
                ttfbEstimate + duration * Double(input.variants[next].bandwidthBitsPerSecond) / rate
                + (known ? 0 : ttfbEstimate + Self.levelLoadSeconds)
            if lowerSeconds < min(starvation, duration + ttfbEstimate) { break }
            next -= 1
        }
        guard lowerSeconds < remainingSeconds, lowerSeconds <= duration * 10 else { return nil }

        // The emergency: sample what this load got, restart the estimate if it is above the lower level.
        if let firstByte {
            estimator.sample(
                seconds: progress.elapsedSeconds - min(ttfbEstimate, firstByte), bytes: progress.bytesLoaded)
        } else {
            estimator.sampleTimeToFirstByte(seconds: progress.elapsedSeconds)
        }
        let nextBitrate = Double(input.variants[next].bandwidthBitsPerSecond)
        if estimator.estimateBitsPerSecond * Self.bandwidthUpFactor > nextBitrate {
            estimator.reset(defaultEstimateBitsPerSecond: nextBitrate)
        }
        if let best = bestLevel(
            input, bitsPerSecond: nextBitrate, allowed: lowest...next, starvationSeconds: 0,
            maxStarvationSeconds: starvation, downFactor: 1, upFactor: 1)
        {
            next = best
        }
        forcedVariant = next
        loadVariant = next
        concludedLoad = load
        if blocksForcedSwitch || remainingSeconds > lowerSeconds * 2 {
            return abortAndSwitch(input, to: next, allowed: allowed)
        }
        scheduledAbort = (load, progress.elapsedSeconds + lowerSeconds, next)
        return nil
    }

    /// hls.js `abortAndSwitch`: abandons the load unless the level to switch to is level 0 (then the load goes
    /// on and the next segment comes from level 0); below the lowest allowed level hls.js takes the lowest, and
    /// starts the estimator over at its BANDWIDTH.
    private mutating func abortAndSwitch(_ input: SelectionInput, to next: Int, allowed: ClosedRange<Int>)
        -> Selection?
    {
        guard next > 0 else { return nil }
        var level = next
        if next > allowed.lowerBound {
            level =
                bestLevel(
                    input, bitsPerSecond: Double(input.variants[allowed.lowerBound].bandwidthBitsPerSecond),
                    allowed: allowed.lowerBound...next, starvationSeconds: 0, maxStarvationSeconds: input.bufferSeconds,
                    downFactor: 1, upFactor: 1) ?? allowed.lowerBound
            forcedVariant = level
            loadVariant = level
            estimator.reset(defaultEstimateBitsPerSecond: Double(input.variants[level].bandwidthBitsPerSecond))
        }
        guard input.explains else { return Selection(variantIndex: level, reason: "hls.js emergency") }
        return Selection(
            variantIndex: level,
            reason: "hls.js emergency, buffer \(fixedNumber(input.bufferSeconds, digits: 1)) s")
    }
}
