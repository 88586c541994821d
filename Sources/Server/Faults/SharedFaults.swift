import Synchronization

/// The `--faults` plan of one server, shared by its event loops (a rule counts requests across all of them).
final class SharedFaults: Sendable {
    private let plan: Mutex<FaultPlan>

    init(_ plan: FaultPlan) { self.plan = Mutex(plan) }

    func fault(forPath path: String) -> (rule: Int, action: FaultRule.Action)? {
        plan.withLock { $0.fault(forPath: path) }
    }
}
