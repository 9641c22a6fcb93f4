import _KVOTestSupport
import KVOCore
import KVOHost
import Testing
@testable import KVOScript

/// Issue 15: the machine charges work inside a statement to --max-steps and
/// checks Ctrl-C there, through the engine's work meter.
@Suite(.serialized) struct HostileMachineTests {
    @Test func ctrlCStopsWorkInsideAStatement() throws {
        let stop = StopFlag()
        let machine = Machine(kvo: KVORuntime(sink: CollectingSink()), stop: stop)
        stop.request(.interrupt)
        do {
            try machine.kvo.work.charge(WorkMeter.chunk)
            Issue.record("not interrupted")
        } catch ScriptError.runtime(let failure) {
            #expect(failure.message == "interrupted")
        }
        #expect(stop.pending == nil)
    }

    @Test func workCountsAgainstMaxSteps() throws {
        let machine = Machine(kvo: KVORuntime(sink: CollectingSink()), stop: StopFlag())
        machine.maxSteps = 10
        try machine.kvo.work.charge(WorkMeter.chunk * 5)
        do {
            try machine.kvo.work.charge(WorkMeter.chunk * 6)
            Issue.record("not stopped")
        } catch ScriptError.runtime(let failure) {
            #expect(failure.message.hasPrefix("more than 10 steps executed"))
        }
    }
}
