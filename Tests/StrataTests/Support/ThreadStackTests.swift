import Foundation
import Testing

@testable import Strata

/// The result of work on another thread, and a signal that it is there.
final class ThreadOutcome<T: Sendable>: Sendable {
    let value = Locked<T?>(nil)
    let done = DispatchSemaphore(value: 0)
}

/// Runs `body` on a new thread with a stack of `stackSize` bytes and returns its result.
func onThread<T: Sendable>(stackSize: Int, _ body: @escaping @Sendable () -> T) -> T {
    let outcome = ThreadOutcome<T>()
    let thread = Thread {
        let result = body()
        outcome.value.withLock { $0 = result }
        outcome.done.signal()
    }
    thread.stackSize = stackSize
    thread.start()
    outcome.done.wait()
    return outcome.value.withLock { $0! }
}

@Suite struct ThreadStackTests {
    @Test func theFloorLiesBelowTheCurrentFrameAndAboveTheStacksEnd() {
        let (current, floor) = onThread(stackSize: 512 * 1024) {
            (ThreadStack.currentAddress(), ThreadStack.floor(keeping: 64 * 1024))
        }
        #expect(floor < current)
        #expect(current - floor < 512 * 1024)
        #expect(current - floor > 256 * 1024)
    }
}
