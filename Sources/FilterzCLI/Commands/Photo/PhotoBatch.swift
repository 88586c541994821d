import CLIKit
import FilterKit
import Foundation
import Media
import Parallel
import PhotoMetadata
import Photos
import Platform

/// The photos of one `photo apply`, done side by side: one photo per core (each rendered on `cores / photos` threads
/// when there are fewer photos than cores), each written to a temporary name and renamed, one line per photo as it
/// finishes, a progress line on a terminal. A photo starts decoding once the memory its pixels take fits in what
/// the photos in progress leave of `limits.maximumMemoryBytes` (`MemoryBudget`).
struct PhotoBatch {
    struct Job: Equatable, Sendable {
        var input: String
        var output: String
        var format: PhotoFormat
        /// Where the source is copied for `--keep-original`.
        var keptOriginal: String?
    }

    struct Problem: Equatable {
        var input: String
        var message: String
    }

    struct Summary {
        var written = 0
        var failed = 0
        /// Inputs that could not be read at all.
        var unreadable = 0
    }

    let jobs: [Job]
    let values: FilterValues
    let quality: Int
    let limits: PhotoLimits
    let context: CommandContext

    /// The jobs for the inputs, and the inputs that cannot be done (their output would overwrite the input or
    /// another input's output).
    static func plan(inputs: [String], output: String?, outDir: String?, keepOriginal: String?) -> (
        jobs: [Job], problems: [Problem]
    ) {
        var jobs: [Job] = [], problems: [Problem] = []
        var outputs: Set<String> = [], kept: Set<String> = []
        for input in inputs {
            let name = (input as NSString).lastPathComponent
            var path: String
            if let output {
                path = output
            } else {
                let folder = outDir ?? "."
                let ext = (name as NSString).pathExtension.lowercased()
                path =
                    ["jpg", "jpeg", "png"].contains(ext)
                    ? (folder as NSString).appendingPathComponent(name)
                    : (folder as NSString).appendingPathComponent((name as NSString).deletingPathExtension + ".jpg")
            }
            let format = PhotoFormat.forOutput(path) ?? .jpeg
            let resolved = standardised(path)
            if resolved == standardised(input) {
                problems.append(Problem(input: input, message: "the output \(path) would overwrite the input"))
                continue
            }
            guard outputs.insert(resolved).inserted else {
                problems.append(Problem(input: input, message: "another input is already written to \(path)"))
                continue
            }
            var keep: String?
            if let keepOriginal {
                let copy = (keepOriginal as NSString).appendingPathComponent(name)
                guard kept.insert(standardised(copy)).inserted, !outputs.contains(standardised(copy)) else {
                    problems.append(Problem(input: input, message: "another file is already written to \(copy)"))
                    continue
                }
                keep = standardised(copy) == standardised(input) ? nil : copy
            }
            jobs.append(Job(input: input, output: path, format: format, keptOriginal: keep))
        }
        return (jobs, problems)
    }

    static func standardised(_ path: String) -> String {
        URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath().path
    }

    /// What became of one photo: lines for stdout and stderr.
    private struct Outcome {
        enum Kind { case written, failed, unreadable }
        var kind: Kind
        var out: [String] = []
        var err: [String] = []
    }

    func run() -> Summary {
        guard !jobs.isEmpty else { return Summary() }
        let cores = ProcessInfo.processInfo.activeProcessorCount
        let workers = max(1, min(cores, jobs.count))
        let pipeline = PhotoPipeline(
            renderer: FilterRenderer(values: values, threads: .dispatch(width: max(1, cores / workers))),
            quality: quality,
            limits: limits)
        let shared = Shared(context: context, total: jobs.count)
        let budget = MemoryBudget(bytes: limits.maximumMemoryBytes)
        let jobs = jobs
        DispatchQueue.concurrentPerform(iterations: workers) { _ in
            while let index = shared.nextJob() {
                shared.report(Self.process(jobs[index], pipeline, budget))
            }
        }
        shared.finish()
        return shared.summary
    }

    private static func process(_ job: Job, _ pipeline: PhotoPipeline, _ budget: MemoryBudget) -> Outcome {
        let source: [UInt8]
        do {
            source = try PhotoFile.read(job.input)
        } catch {
            // "IN: no such file" as "IN: error: no such file", like the other lines of a batch.
            let reason = error.description.dropFirst(
                error.description.hasPrefix(job.input + ": ") ? job.input.count + 2 : 0)
            return Outcome(kind: .unreadable, err: ["\(job.input): error: \(reason)"])
        }
        let result: PhotoPipeline.Output
        var reserved = 0
        do {
            defer { budget.release(reserved) }  // the pixels are gone once the photo is encoded
            result = try pipeline.apply(to: source, writing: job.format) { width, height in
                reserved = PhotoLimits.memoryBytes(width: width, height: height)
                budget.reserve(reserved)
            }
        } catch {
            return Outcome(kind: .failed, err: ["\(job.input): error: \(error.description)\(hint(for: error))"])
        }
        var outcome = Outcome(kind: .written)
        // Malformed metadata is reported, each kind of problem on one line; notes on what is not carried (the
        // thumbnail, MPF, …) are documented, not repeated for every photo of a batch.
        outcome.err = MetadataWarning.collapsingRepeats(result.warnings.filter { $0.severity == .warning })
            .map { "\(job.input): \($0.description)" }
        for (bytes, path) in [(result.bytes, job.output)] + (job.keptOriginal.map { [(source, $0)] } ?? []) {
            do {
                try AtomicFile.write(bytes, to: path)
            } catch {
                outcome.kind = .failed
                outcome.err.append("\(job.input): error: cannot write \(path): \(error.reason)")
                return outcome
            }
        }
        outcome.out.append(
            "\(job.input) -> \(job.output): \(result.width)x\(result.height) \(result.format.rawValue), "
                + DetailFormat.fileSize(result.bytes.count)
                + (job.keptOriginal.map { ", original kept as \($0)" } ?? ""))
        return outcome
    }

    /// The option that raises the limit a photo was refused by.
    static func hint(for error: PhotoError) -> String {
        switch error {
        case .tooManyPixels: " (raise the limit with \(PhotoApplyCommand.maxMegapixels.spec.name))"
        case .tooMuchMemory: " (raise the limit with \(PhotoApplyCommand.memoryLimit.spec.name))"
        default: ""
        }
    }

    /// The memory the pixels of the photos in progress may take together: `reserve` waits until what it asks for
    /// fits beside what the others hold (a single photo never asks for more than the whole: `PhotoLimits.check`).
    final class MemoryBudget: @unchecked Sendable {
        private let condition = NSCondition()
        private let total: Int
        private var held = 0

        init(bytes: Int) { total = bytes }

        func reserve(_ bytes: Int) {
            condition.withLock {
                while held > 0 && held + bytes > total { condition.wait() }
                held += bytes
            }
        }

        func release(_ bytes: Int) {
            guard bytes > 0 else { return }
            condition.withLock {
                held -= bytes
                condition.broadcast()
            }
        }
    }

    /// The job counter, the counts and the terminal's lines, shared by the workers (under `lock`).
    private final class Shared: @unchecked Sendable {
        private let lock = NSLock()
        private let context: CommandContext
        private let total: Int
        private var next = 0
        private var done = 0
        private var progress = false
        private(set) var summary = Summary()

        init(context: CommandContext, total: Int) {
            self.context = context
            self.total = total
        }

        func nextJob() -> Int? {
            lock.withLock {
                guard next < total else { return nil }
                defer { next += 1 }
                return next
            }
        }

        func report(_ outcome: Outcome) {
            lock.withLock {
                clearProgress()
                for line in outcome.out { context.stdout.line(line) }
                for line in outcome.err { context.stderr.line(line) }
                switch outcome.kind {
                case .written: summary.written += 1
                case .failed: summary.failed += 1
                case .unreadable: summary.unreadable += 1
                }
                done += 1
                if total > 1 && done < total && context.stderr.isTerminal {
                    let failed = summary.failed + summary.unreadable
                    context.stderr.write(
                        "photo apply: \(done)/\(total) photos" + (failed > 0 ? ", \(failed) failed" : ""))
                    progress = true
                }
            }
        }

        func finish() { lock.withLock { clearProgress() } }

        private func clearProgress() {
            if progress { context.stderr.write("\r\u{1B}[K") }
            progress = false
        }
    }
}
