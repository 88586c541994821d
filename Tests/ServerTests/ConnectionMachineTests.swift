import Testing

@testable import Server

/// The connection machine step by step: the whole action list is asserted after every event, with the clock
/// given by hand (milliseconds). Timeouts are the defaults: a head within 10 s, 30 s idle, answers read at
/// 8 KiB/s or faster, 5 s without progress counts as stalled.
@Suite struct ConnectionMachineTests {
    typealias Machine = ConnectionMachine

    static func machine(at now: Int64 = 0) -> Machine {
        Machine(now: now, timeouts: ConnectionTimeouts(), inputCapacity: 8193)
    }

    static func read(_ buffered: Int, drained: Bool = true, peerClosed: Bool = false, mayDecide: Bool = true)
        -> Machine.Event
    {
        .didRead(Machine.Reading(buffered: buffered, drained: drained, peerClosed: peerClosed, mayDecide: mayDecide))
    }

    static func wrote(_ outcome: Machine.Writing.Outcome, progressed: Bool = true) -> Machine.Event {
        .didWrite(Machine.Writing(progressed: progressed, outcome: outcome))
    }

    static let readable = Machine.Event.socketReady(input: true, hangUp: false)
    static let writable = Machine.Event.socketReady(input: false, hangUp: false)
    static let hangUp = Machine.Event.socketReady(input: true, hangUp: true)

    /// A machine that has parsed one request at `now` and is answering it.
    static func answering(at now: Int64 = 0, keepsAlive: Bool = true) -> Machine {
        var machine = machine(at: now)
        _ = machine.handle(readable, now: now)
        _ = machine.handle(read(40), now: now)
        _ = machine.handle(.requestParsed(keepsAlive: keepsAlive, remaining: 0), now: now)
        return machine
    }

    @Test func aRequestIsReadParsedAnsweredSentAndTheConnectionWaitsForTheNext() {
        var machine = Self.machine()
        #expect(machine.state == .awaitingHead(started: false))
        #expect(machine.deadline == 10_000)
        #expect(machine.handle(Self.readable, now: 5) == [.read])
        #expect(machine.handle(Self.read(40), now: 5) == [.parse])
        #expect(machine.state == .awaitingHead(started: true))
        #expect(machine.deadline == 10_005)
        #expect(machine.handle(.requestParsed(keepsAlive: true, remaining: 0), now: 5) == [.beginRequest, .answer])
        #expect(machine.state == .answering(wait: nil))
        #expect(machine.deadline == .max)
        #expect(machine.handle(.answerReady(.response(bodyBytes: 1000)), now: 6) == [.write])
        #expect(machine.state == .sending)
        #expect(machine.deadline == 30_006)
        #expect(!machine.closesAfterAnswer)
        // The socket was drained by the read: the next request waits for the next event, idle for 30 s.
        #expect(machine.handle(Self.wrote(.finished), now: 7) == [.endRequest])
        #expect(machine.state == .awaitingHead(started: false))
        #expect(machine.deadline == 30_007)
        #expect(machine.reclaimRank(now: 8) == ReclaimRank(since: 7, .waiting))
        #expect(machine.handle(Self.readable, now: 9) == [.read])
    }

    @Test func aPipelinedRequestIsParsedAsSoonAsTheAnswerBeforeItIsOut() {
        var machine = Self.machine()
        _ = machine.handle(Self.readable, now: 0)
        #expect(machine.handle(Self.read(80), now: 0) == [.parse])
        #expect(machine.handle(.requestParsed(keepsAlive: true, remaining: 40), now: 0) == [.beginRequest, .answer])
        #expect(machine.handle(.answerReady(.response(bodyBytes: 10)), now: 1) == [.write])
        #expect(machine.handle(Self.wrote(.finished), now: 2) == [.endRequest, .parse])
        #expect(machine.state == .awaitingHead(started: true))
        #expect(machine.deadline == 10_002)
    }

    @Test func aHeadArrivingAByteAtATimeIsParsedOnlyWhenNewBytesMayDecide() {
        var machine = Self.machine()
        _ = machine.handle(Self.readable, now: 0)
        #expect(machine.handle(Self.read(100, mayDecide: false), now: 0) == [])
        #expect(machine.handle(Self.readable, now: 1) == [.read])
        #expect(machine.handle(Self.read(101, mayDecide: true), now: 1) == [.parse])
        #expect(machine.handle(.headIncomplete, now: 1) == [])
    }

    @Test func aRefusalOrAClosingRequestEndsTheConnectionAfterItsAnswer() {
        var machine = Self.answering(keepsAlive: false)
        #expect(machine.closesAfterAnswer)
        #expect(machine.handle(.answerReady(.response(bodyBytes: 30)), now: 1) == [.write])
        #expect(machine.handle(Self.wrote(.finished), now: 2) == [.endRequest, .close])
        #expect(machine.state == .closed)
        #expect(machine.handle(Self.readable, now: 3) == [])
    }

    @Test func aClientThatClosedItsSideAfterItsRequestGetsTheAnswerThenTheConnectionCloses() {
        var machine = Self.machine()
        #expect(machine.handle(Self.hangUp, now: 0) == [.read])
        #expect(machine.handle(Self.read(40, drained: false, peerClosed: true), now: 0) == [.parse])
        #expect(machine.handle(.requestParsed(keepsAlive: true, remaining: 0), now: 0) == [.beginRequest, .answer])
        #expect(machine.closesAfterAnswer)
        #expect(machine.handle(.answerReady(.response(bodyBytes: 30)), now: 1) == [.write])
        #expect(machine.handle(Self.wrote(.finished), now: 2) == [.endRequest, .close])
    }

    @Test func aClientThatLeavesWithoutARequestIsClosed() {
        var machine = Self.machine()
        #expect(machine.handle(Self.hangUp, now: 0) == [.read])
        #expect(machine.handle(Self.read(0, drained: false, peerClosed: true), now: 0) == [.close])
    }

    @Test func aHeadNotCompleteInTimeGets408AndAnIdleConnectionIsClosedQuietly() {
        var trickling = Self.machine()
        _ = trickling.handle(Self.readable, now: 0)
        _ = trickling.handle(Self.read(1), now: 100)
        _ = trickling.handle(.headIncomplete, now: 100)
        #expect(trickling.handle(.timerFired, now: 10_099) == [])
        #expect(
            trickling.handle(.timerFired, now: 10_100)
                == [.refuseAtOnce(RequestRefusal(408, "the request head took too long")), .close])
        var idle = Self.machine()
        #expect(idle.handle(.timerFired, now: 10_000) == [.close])
    }

    @Test func aHeldRequestWaitsForItsFileKeepsItsFirstDeadlineAndGetsItsTimeoutAnswer() {
        var machine = Self.answering(at: 100)
        #expect(
            machine.handle(.answerReady(.hold(path: "v/p.m3u8", timeoutMilliseconds: 3000)), now: 100)
                == [.park(path: "v/p.m3u8")])
        #expect(machine.state == .held(Machine.Wait(path: "v/p.m3u8", deadline: 3100)))
        #expect(machine.deadline == 3100)
        #expect(machine.reclaimRank(now: 100_000) == nil)
        // Parked: the socket becoming writable costs nothing.
        #expect(machine.handle(Self.writable, now: 200) == [])
        #expect(machine.handle(.fileChanged, now: 500) == [.answer])
        #expect(machine.state == .answering(wait: Machine.Wait(path: "v/p.m3u8", deadline: 3100)))
        // Still not there: it waits again, on the same file, with the same deadline.
        #expect(machine.handle(.answerReady(.hold(path: "v/p.m3u8", timeoutMilliseconds: 3000)), now: 600) == [])
        #expect(machine.deadline == 3100)
        #expect(machine.handle(.timerFired, now: 3099) == [])
        #expect(machine.handle(.timerFired, now: 3100) == [.unpark(path: "v/p.m3u8"), .answerTimeout])
        #expect(machine.handle(.answerReady(.response(bodyBytes: 20)), now: 3100) == [.write])
    }

    @Test func aHeldRequestAnsweredAfterItsFileChangedLeavesTheFilesList() {
        var machine = Self.answering()
        _ = machine.handle(.answerReady(.hold(path: "a", timeoutMilliseconds: 3000)), now: 0)
        #expect(machine.handle(.fileChanged, now: 10) == [.answer])
        // The answer now waits on another file (a part of the next segment): it moves to that file's list.
        #expect(
            machine.handle(.answerReady(.hold(path: "b", timeoutMilliseconds: 3000)), now: 10)
                == [.unpark(path: "a"), .park(path: "b")])
        #expect(machine.handle(.fileChanged, now: 20) == [.answer])
        #expect(machine.handle(.answerReady(.response(bodyBytes: 500)), now: 20) == [.unpark(path: "b"), .write])
    }

    @Test func aHeldClientThatLeavesIsClosedAndOneThatOnlyShutItsSideStillWaits() {
        var leaving = Self.answering()
        _ = leaving.handle(.answerReady(.hold(path: "a", timeoutMilliseconds: 3000)), now: 0)
        #expect(leaving.handle(Self.hangUp, now: 5) == [.read])
        #expect(
            leaving.handle(Self.read(0, drained: false, peerClosed: true), now: 5)
                == [.unpark(path: "a"), .endRequest, .close])
        // A client that sent its request and shut its side at once waits for the answer, and is not read again.
        var machine = Self.machine()
        _ = machine.handle(Self.hangUp, now: 0)
        _ = machine.handle(Self.read(40, drained: false, peerClosed: true), now: 0)
        _ = machine.handle(.requestParsed(keepsAlive: true, remaining: 0), now: 0)
        _ = machine.handle(.answerReady(.hold(path: "a", timeoutMilliseconds: 3000)), now: 0)
        #expect(machine.handle(Self.hangUp, now: 5) == [])
        #expect(machine.state == .held(Machine.Wait(path: "a", deadline: 3000)))
    }

    @Test func anAnswerMustBeReadAtTheMinimumRateAndKeepsGoingWhileTheClientTakesBytes() {
        var machine = Self.answering()
        // 80 KiB at 8 KiB/s: 10 s on top of the 30 s idle allowance.
        #expect(machine.handle(.answerReady(.response(bodyBytes: 81_920)), now: 0) == [.write])
        #expect(machine.handle(Self.wrote(.blocked), now: 0) == [.noteSendQueue])
        #expect(machine.deadline == 30_000)
        #expect(machine.reclaimRank(now: 4_999) == nil)
        #expect(machine.reclaimRank(now: 5_000) == ReclaimRank(since: 0, .stalled))
        #expect(machine.handle(.clientTookBytes, now: 20_000) == [])
        #expect(machine.deadline == 40_000)
        #expect(machine.reclaimRank(now: 24_999) == nil)
        #expect(machine.handle(Self.writable, now: 21_000) == [.write])
        #expect(machine.handle(Self.wrote(.blocked), now: 21_000) == [.noteSendQueue])
        #expect(machine.handle(.timerFired, now: 40_000) == [.endRequest, .close])
    }

    @Test func anEvictedConnectionTellsAClientMidHeadThatTheServerIsFull() {
        var midHead = Self.machine()
        _ = midHead.handle(Self.readable, now: 0)
        _ = midHead.handle(Self.read(3), now: 0)
        _ = midHead.handle(.headIncomplete, now: 0)
        #expect(
            midHead.handle(.evicted, now: 1) == [.refuseAtOnce(RequestRefusal(503, "the server is full")), .close])
        var idle = Self.machine()
        #expect(idle.handle(.evicted, now: 1) == [.close])
        var sending = Self.answering()
        _ = sending.handle(.answerReady(.response(bodyBytes: 10)), now: 0)
        #expect(sending.handle(.evicted, now: 1) == [.endRequest, .close])
    }

    @Test func aBackgroundAnswerHasNoDeadlineAndAFailedWriteCloses() {
        var machine = Self.answering()
        #expect(machine.handle(.timerFired, now: 1_000_000) == [])
        #expect(machine.reclaimRank(now: 1_000_000) == nil)
        _ = machine.handle(.answerReady(.response(bodyBytes: 10)), now: 1_000_000)
        #expect(machine.handle(Self.wrote(.failed, progressed: false), now: 1_000_001) == [.endRequest, .close])
    }

    @Test func shutdownEndsWhatIsInFlight() {
        var held = Self.answering()
        _ = held.handle(.answerReady(.hold(path: "a", timeoutMilliseconds: 3000)), now: 0)
        #expect(held.handle(.shutdown, now: 1) == [.unpark(path: "a"), .endRequest, .close])
        var background = Self.answering()
        _ = background.handle(.answerReady(.hold(path: "a", timeoutMilliseconds: 3000)), now: 0)
        _ = background.handle(.fileChanged, now: 1)
        #expect(background.handle(.socketFailed, now: 2) == [.unpark(path: "a"), .endRequest, .close])
        var waiting = Self.machine()
        #expect(waiting.handle(.shutdown, now: 1) == [.close])
    }

    /// A shaped link holds an answer: the machine waits for the link's slot (not for the socket, and without
    /// counting the wait against the client), then writes again.
    @Test func anAnswerPacedByItsLinkWaitsForTheSlotAndThenWrites() {
        var machine = Self.answering()
        #expect(machine.handle(.answerReady(.response(bodyBytes: 10_000)), now: 1_000) == [.write])
        #expect(machine.handle(Self.wrote(.paced(until: 1_040), progressed: false), now: 1_000) == [.wakeAt(1_040)])
        #expect(machine.deadline == 1_040)
        // Writable sockets and clients that read change nothing while the link holds the answer.
        #expect(machine.handle(Self.writable, now: 1_010) == [])
        #expect(machine.handle(.clientTookBytes, now: 1_020) == [])
        #expect(machine.handle(.timerFired, now: 1_030) == [])
        #expect(machine.handle(.timerFired, now: 1_041) == [.write])
        #expect(machine.pacedUntil == nil)
        // A slot already due writes at once; a long hold (an outage) is not a slow client: no close at the
        // idle timeout, the answer goes on when the link does.
        #expect(machine.handle(Self.wrote(.paced(until: 1_041)), now: 1_041) == [.write])
        #expect(machine.handle(Self.wrote(.paced(until: 200_000)), now: 1_041) == [.wakeAt(200_000)])
        #expect(machine.handle(.timerFired, now: 100_000) == [])
        #expect(machine.handle(.timerFired, now: 200_000) == [.write])
        #expect(machine.handle(Self.wrote(.finished), now: 200_001) == [.endRequest])
    }
}
