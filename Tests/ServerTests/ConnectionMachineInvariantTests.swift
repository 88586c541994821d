import FilterzTestSupport
import Testing

@testable import Server

/// The connection machine against every event in every state, and along seeded random runs in which a loop
/// model answers each action the way the event loop does: nothing happens after close, a request is begun and
/// ended once, a connection is parked on at most one file and only while its request waits, every held request
/// is answered or closed by its deadline, and a parked connection asks for no work.
@Suite struct ConnectionMachineInvariantTests {
    typealias Machine = ConnectionMachine
    typealias Fixture = ConnectionMachineTests

    /// A machine in each state it can be in (and both kinds of `answering`).
    static func machinesInEveryState() -> [Machine] {
        var idle = Fixture.machine()
        var midHead = Fixture.machine()
        _ = midHead.handle(Fixture.readable, now: 0)
        _ = midHead.handle(Fixture.read(5), now: 0)
        _ = midHead.handle(.headIncomplete, now: 0)
        let answering = Fixture.answering()
        var sending = Fixture.answering()
        _ = sending.handle(.answerReady(.response(bodyBytes: 1_000_000)), now: 0)
        _ = sending.handle(Fixture.wrote(.blocked), now: 0)
        var paced = Fixture.answering()
        _ = paced.handle(.answerReady(.response(bodyBytes: 1_000_000)), now: 0)
        _ = paced.handle(Fixture.wrote(.paced(until: 40)), now: 0)
        var held = Fixture.answering()
        _ = held.handle(.answerReady(.hold(path: "a", timeoutMilliseconds: 3000)), now: 0)
        var reasking = held
        _ = reasking.handle(.fileChanged, now: 1)
        var closed = idle
        _ = closed.handle(.shutdown, now: 0)
        _ = idle.handle(.timerFired, now: 0)
        return [Fixture.machine(), midHead, answering, sending, paced, held, reasking, closed]
    }

    static let everyEvent: [Machine.Event] = [
        Fixture.readable, Fixture.writable, Fixture.hangUp, .socketFailed,
        Fixture.read(0, drained: true), Fixture.read(40, drained: false), Fixture.read(0, peerClosed: true),
        Fixture.read(8193, drained: false), .didRead(nil), .headIncomplete,
        .requestParsed(keepsAlive: true, remaining: 0), .requestParsed(keepsAlive: false, remaining: 12),
        .answerReady(.response(bodyBytes: 0)), .answerReady(.response(bodyBytes: 5000)),
        .answerReady(.hold(path: "a", timeoutMilliseconds: 3000)),
        .answerReady(.hold(path: "b", timeoutMilliseconds: 0)),
        Fixture.wrote(.finished), Fixture.wrote(.blocked), Fixture.wrote(.failed, progressed: false),
        Fixture.wrote(.paced(until: 30)), Fixture.wrote(.paced(until: 60_000), progressed: false),
        .clientTookBytes, .timerFired, .fileChanged, .evicted, .shutdown,
    ]

    @Test func everyStateTakesEveryEventKeepingTheInvariants() {
        var checked = 0
        for machine in Self.machinesInEveryState() {
            for event in Self.everyEvent {
                for now: Int64 in [1, 50_000] {
                    var copy = machine
                    var model = Model(machine)
                    let actions = copy.handle(event, now: now)
                    model.check(actions, before: machine, after: copy, event: event, now: now)
                    checked += 1
                }
            }
        }
        #expect(checked == 8 * Self.everyEvent.count * 2)
    }

    @Test(arguments: 0..<4)
    func seededRandomRunsKeepTheInvariants(seed: UInt64) {
        var random = SeededGenerator(seed: 0xC0_4E_C7 &+ seed)
        var tally = Tally()
        for _ in 0..<250 {
            run(&random, &tally)
        }
        // The runs reach every part of the machine, so that a broken rule would be met.
        #expect(tally.answered >= 40)
        #expect(tally.held >= 40)
        #expect(tally.heldTimedOut >= 10)
        #expect(tally.heldAnsweredAfterChange >= 15)
        #expect(tally.closedByPeer >= 5)
        #expect(tally.evicted >= 30)
        #expect(tally.paced >= 40)
        #expect(tally.pacedResumed >= 20)
    }

    struct Tally {
        var answered = 0
        var held = 0
        var heldTimedOut = 0
        var heldAnsweredAfterChange = 0
        var closedByPeer = 0
        var evicted = 0
        var paced = 0
        var pacedResumed = 0
    }

    /// One connection's life: events from outside (the socket, time, files, eviction) at random, and each
    /// action that expects an answer answered as the event loop would, with random outcomes.
    private func run(_ random: inout SeededGenerator, _ tally: inout Tally) {
        var now: Int64 = Int64(random.nextInt(in: 0...1000))
        var machine = Machine(now: now, timeouts: ConnectionTimeouts(), inputCapacity: 8193)
        var model = Model(machine)
        var buffered = 0
        var pending: Machine.Event?
        var workerAnswer: Machine.Answer?
        for _ in 0..<120 {
            let event: Machine.Event
            if let next = pending {
                event = next
                pending = nil
            } else {
                now += Int64(random.nextInt(in: 0...4000))
                event = external(&random, workerAnswer: &workerAnswer, now: now)
            }
            let before = machine
            let actions = machine.handle(event, now: now)
            model.check(actions, before: before, after: machine, event: event, now: now)
            if case .held = before.state, actions.contains(.answer) { tally.heldAnsweredAfterChange += 1 }
            if actions.contains(.answerTimeout) { tally.heldTimedOut += 1 }
            if case .park = actions.last { tally.held += 1 }
            if actions.contains(.endRequest) && !actions.contains(.close) { tally.answered += 1 }
            if event == .evicted && actions.contains(.close) { tally.evicted += 1 }
            if case .wakeAt = actions.last { tally.paced += 1 }
            if before.pacedUntil != nil && actions == [.write] { tally.pacedResumed += 1 }
            if case .didRead(let reading?) = event, reading.peerClosed, actions.contains(.close) {
                tally.closedByPeer += 1
            }
            if machine.state == .closed { return }
            switch actions.last {
            case .read:
                let peerLeaves = random.nextInt(in: 0...15) == 0
                buffered = peerLeaves ? buffered : min(8193, buffered + random.nextInt(in: 0...120))
                // As a socket reads: drained, unless the peer left or the input is full.
                pending = Fixture.read(
                    buffered, drained: !peerLeaves && buffered < 8193, peerClosed: peerLeaves,
                    mayDecide: random.nextInt(in: 0...2) > 0)
            case .parse:
                switch random.nextInt(in: 0...5) {
                case 0, 1: pending = .headIncomplete
                default:
                    buffered = random.nextInt(in: 0...3) == 0 ? random.nextInt(in: 1...60) : 0
                    pending = .requestParsed(keepsAlive: random.nextInt(in: 0...5) > 0, remaining: buffered)
                }
            case .answer, .answerTimeout:
                let answer: Machine.Answer =
                    random.nextInt(in: 0...2) == 0 && actions.last == .answer
                    ? .hold(path: ["a", "b"][random.nextInt(in: 0...1)], timeoutMilliseconds: 3000)
                    : .response(bodyBytes: Int64(random.nextInt(in: 0...2_000_000)))
                // Some answers are made by a background worker and come back later.
                if random.nextInt(in: 0...3) == 0 { workerAnswer = answer } else { pending = .answerReady(answer) }
            case .write:
                // A shaped link holds some answers for a while (or not at all: a slot already due).
                let until = now + Int64(random.nextInt(in: -5...3000))
                let outcomes: [Machine.Writing.Outcome] = [
                    .finished, .finished, .blocked, .blocked, .failed, .paced(until: until), .paced(until: until),
                ]
                pending = Fixture.wrote(
                    outcomes[random.nextInt(in: 0...6)], progressed: random.nextInt(in: 0...1) == 0)
            default:
                break
            }
        }
    }

    private func external(
        _ random: inout SeededGenerator, workerAnswer: inout Machine.Answer?, now: Int64
    ) -> Machine.Event {
        if let answer = workerAnswer, random.nextInt(in: 0...1) == 0 {
            workerAnswer = nil
            return .answerReady(answer)
        }
        switch random.nextInt(in: 0...40) {
        case 0...11: return Fixture.readable
        case 12...15: return Fixture.writable
        case 16...17: return Fixture.hangUp
        case 18...25: return .timerFired
        case 26...32: return .fileChanged
        case 33...36: return .clientTookBytes
        case 37...38: return .evicted
        case 39: return .socketFailed
        default: return .shutdown
        }
    }

    /// What the loop has been told so far (parked files, the request in flight), and the checks on each step.
    struct Model {
        var parked: String?
        var requestOpen: Bool
        /// When the request now in flight was first held, and with which timeout.
        var heldSince: (at: Int64, timeout: Int64)?
        /// The socket reported input or a hang-up that no read has drained since.
        var unreadNews = true

        init(_ machine: Machine) {
            switch machine.state {
            case .held(let wait), .answering(wait: .some(let wait)): parked = wait.path
            default: parked = nil
            }
            switch machine.state {
            case .answering, .sending, .held: requestOpen = true
            default: requestOpen = false
            }
        }

        mutating func check(
            _ actions: [Machine.Action], before: Machine, after: Machine, event: Machine.Event, now: Int64
        ) {
            let context = "\(before.state) + \(event) at \(now) → \(actions)"
            if before.state == .closed {
                #expect(actions.isEmpty, "\(context)")
                return
            }
            // At most one action that brings an event back, and it is the last; close is last and final.
            let driving: [Machine.Action] = [.read, .parse, .answer, .answerTimeout, .write]
            let drivingCount = actions.filter { driving.contains($0) }.count
            #expect(drivingCount <= 1, "\(context)")
            if drivingCount == 1 { #expect(driving.contains(actions.last!), "\(context)") }
            #expect(actions.filter { $0 == .close }.count <= 1, "\(context)")
            if actions.contains(.close) {
                #expect(actions.last == .close && after.state == .closed, "\(context)")
            } else {
                #expect(after.state != .closed, "\(context)")
            }
            for action in actions {
                switch action {
                case .park(let path):
                    #expect(parked == nil, "parked twice: \(context)")
                    parked = path
                case .unpark(let path):
                    #expect(parked == path, "unparked a file it was not parked on: \(context)")
                    parked = nil
                case .beginRequest:
                    #expect(!requestOpen, "\(context)")
                    requestOpen = true
                    heldSince = nil
                case .endRequest:
                    #expect(requestOpen, "\(context)")
                    requestOpen = false
                case .write:
                    #expect(after.state == .sending, "\(context)")
                case .read:
                    #expect(
                        after.state == .awaitingHead(started: false) || after.state == .awaitingHead(started: true)
                            || isHeld(after), "\(context)")
                default: break
                }
            }
            // Parked exactly while the request waits on that file (or is asked again after it changed).
            switch after.state {
            case .held(let wait), .answering(wait: .some(let wait)):
                #expect(parked == wait.path, "\(context)")
            default:
                #expect(parked == nil, "\(context)")
            }
            switch after.state {
            case .answering, .sending, .held: #expect(requestOpen, "\(context)")
            default: #expect(!requestOpen, "\(context)")
            }
            // A held request's deadline is its first wait's: it is answered or closed by then.
            if case .held(let wait) = after.state {
                #expect(after.deadline == wait.deadline, "\(context)")
                if case .answering(wait: nil) = before.state, case .answerReady(.hold(_, let timeout)) = event {
                    heldSince = (now, timeout)
                }
                if let since = heldSince { #expect(wait.deadline <= since.at + since.timeout, "\(context)") }
                if event == .timerFired && now >= before.deadline {
                    Issue.record("a held request outlived its deadline: \(context)")
                }
            }
            // A paced answer writes nothing before its link's slot, waits for exactly that slot, and writes when it
            // comes (time the link held it is not held against the client).
            if before.pacedUntil != nil && actions.contains(.write) {
                #expect(now >= before.pacedUntil!, "wrote before the link's slot: \(context)")
            }
            if let until = after.pacedUntil {
                #expect(after.state == .sending && after.deadline == until, "\(context)")
                if before.pacedUntil == nil { #expect(actions == [.wakeAt(until)] && until > now, "\(context)") }
            }
            if before.state == .sending, let until = before.pacedUntil, event == .timerFired, now >= until {
                #expect(actions == [.write] && after.pacedUntil == nil, "\(context)")
            }
            if case .held = before.state, event == .timerFired, now >= before.deadline {
                #expect(actions.last == .answerTimeout, "\(context)")
            }
            // A parked connection asks for no work but one read when its socket has news not yet read.
            if case .socketReady(let input, let hangUp) = event, input || hangUp { unreadNews = true }
            if case .didRead(let reading?) = event, reading.drained { unreadNews = false }
            if case .held = before.state, isHeld(after) {
                let allowed: [Machine.Action] = unreadNews ? [.read] : []
                #expect(actions.allSatisfy { allowed.contains($0) }, "\(context)")
            }
            // Only an answer being made or a closed connection has no deadline.
            switch after.state {
            case .answering, .closed: break
            default: #expect(after.deadline < .max, "\(context)")
            }
        }

        private func isHeld(_ machine: Machine) -> Bool {
            if case .held = machine.state { return true }
            return false
        }
    }
}
