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

/// The threads ask for stacks of 512 KiB or 8 MiB only: glibc may give a new thread the cached
/// stack of an ended one up to four times the size asked for, so a thread of 1 MiB would let a
/// later thread of 512 KiB run on a larger stack than the checks expect.
@Suite struct ThreadStackTests {
    @Test func theFloorLiesBelowTheCurrentFrameAndAboveTheStacksEnd() {
        let (current, floor) = onThread(stackSize: 512 * 1024) {
            (ThreadStack.currentAddress(), ThreadStack.floor(keeping: 64 * 1024))
        }
        #expect(floor < current)
        #expect(current - floor < 512 * 1024)
        #expect(current - floor > 256 * 1024)
    }

    /// An address taken deeper in the calls is lower and above the floor, also under the
    /// address sanitizer (`swift test --sanitize=address`), which may keep locals on a fake
    /// stack of its own: there the parser's depth check once refused a predicate one level deep.
    @Test func deeperCallsGiveLowerAddresses() {
        let (addresses, floor) = onThread(stackSize: 512 * 1024) {
            (Self.addresses(descending: 50), ThreadStack.floor(keeping: 0))
        }
        #expect(zip(addresses, addresses.dropFirst()).allSatisfy { $0 > $1 })
        #expect(addresses.allSatisfy { $0 > floor })
    }

    /// The address ``ThreadStack/currentAddress()`` gives at each of `levels` + 1 nested calls.
    @inline(never)
    private static func addresses(descending levels: Int) -> [UInt] {
        let here = ThreadStack.currentAddress()
        return [here] + (levels == 0 ? [] : addresses(descending: levels - 1))
    }

    /// Each thread's stack bounds are read once and kept for that thread alone: a thread with
    /// a small stack, after one with a large stack, gets a floor inside its own stack.
    @Test func eachThreadKeepsItsOwnBounds() {
        for stackSize in [8 * 1024 * 1024, 512 * 1024, 8 * 1024 * 1024] {
            let (current, first, second) = onThread(stackSize: stackSize) {
                (ThreadStack.currentAddress(), ThreadStack.floor(keeping: 0), ThreadStack.floor(keeping: 0))
            }
            #expect(first == second, "The floor changed between two calls on one thread.")
            #expect(first < current && current - first <= UInt(stackSize), "Stack of \(stackSize) bytes")
        }
    }
}
