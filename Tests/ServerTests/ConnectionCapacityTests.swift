import Testing

@testable import Server

/// How many connections a server holds, from its descriptor limit, and which one gives up its slot when all are
/// taken: pure rules, without sockets.
@Suite struct ConnectionCapacityTests {
    @Test func theCapFollowsTheDescriptorLimitLessAReserve() throws {
        let low = try ConnectionCapacity(descriptorLimit: 1024, loops: 2, requested: nil, perAddress: 256)
        #expect(low.connections == 1024 - 16 - 6 - 128)
        #expect(low.summary == "up to 874 connections, 256 per address (descriptor limit 1024)")
        #expect(low.warning?.contains("descriptor limit of 1024 is low and caps connections at 874") == true)
        let high = try ConnectionCapacity(descriptorLimit: 1 << 20, loops: 2, requested: nil, perAddress: 0)
        #expect(high.connections == 917_482 && high.warning == nil)
        #expect(high.summary == "up to 917482 connections, no cap per address (descriptor limit 1048576)")
        // A limit too small for any reserve still leaves one connection.
        #expect(try ConnectionCapacity(descriptorLimit: 8, loops: 4, requested: nil, perAddress: 1).connections == 1)
    }

    @Test func askingForMoreThanTheDescriptorsAllowIsAnError() throws {
        #expect(
            try ConnectionCapacity(descriptorLimit: 1024, loops: 2, requested: 874, perAddress: 256).connections == 874)
        #expect(
            try ConnectionCapacity(descriptorLimit: 1024, loops: 2, requested: 10, perAddress: 256).connections == 10)
        #expect(throws: ServerError.tooManyConnections(requested: 875, allowed: 874, descriptorLimit: 1024)) {
            try ConnectionCapacity(descriptorLimit: 1024, loops: 2, requested: 875, perAddress: 256)
        }
        let error = ServerError.tooManyConnections(requested: 875, allowed: 874, descriptorLimit: 1024)
        #expect(error.description.contains("limit of 1024") && error.description.contains("at most 874"))
    }

    @Test func theConnectionThatHasDoneNothingForLongestGivesWayFirst() {
        // A client that has just connected goes after an answer its client stopped reading long ago.
        #expect([ReclaimRank(since: 900, .waiting), ReclaimRank(since: 40, .stalled)].min()?.kind == .stalled)
        #expect([ReclaimRank(since: 40, .stalled), ReclaimRank(since: 30, .waiting)].min()?.kind == .waiting)
        #expect([ReclaimRank(since: 40, .stalled), ReclaimRank(since: 40, .waiting)].min()?.kind == .waiting)
    }
}
