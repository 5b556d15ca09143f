#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Where the current thread's call stack ends, so that recursive code can stop before it runs
/// out of stack instead of crashing.
///
/// Stacks grow down on every platform Swift runs on, so the deeper a call, the lower the
/// address of its locals. A recursive parser takes ``floor(keeping:)`` once and, at each level,
/// compares ``currentAddress()`` with it.
enum ThreadStack {
    /// How far down the stack a recursive algorithm started now may go: the lowest address of
    /// the current thread's stack plus `margin` bytes for the calls made after the last check.
    ///
    /// Reads the stack bounds with `pthread_get_stackaddr_np` and `pthread_get_stacksize_np`
    /// (Darwin) or `pthread_getattr_np` and `pthread_attr_getstack` (Linux). Where the bounds
    /// are unknown, allows 256 KiB below the current address.
    static func floor(keeping margin: UInt) -> UInt {
        let current = currentAddress()
        guard let lowest = lowestAddress(), lowest < current else {
            return current > 256 * 1024 ? current - 256 * 1024 : 0
        }
        return current - lowest > margin ? lowest + margin : current
    }

    /// An address inside the caller's stack frame (of a local in the frame just below it).
    @inline(never)
    static func currentAddress() -> UInt {
        var marker: UInt8 = 0
        return withUnsafeMutablePointer(to: &marker) {
            UInt(bitPattern: AddressSanitizer.threadStackAddress(of: UnsafeMutableRawPointer($0)))
        }
    }

    /// The address sanitizer's fake stack. To catch uses of locals after their function
    /// returned, the sanitizer may keep a local whose address is taken in memory of its own,
    /// far from the thread's stack.
    private enum AddressSanitizer {
        /// `address`, or, when it lies on the fake stack, the address on the thread's stack of
        /// the frame it stands for.
        static func threadStackAddress(of address: UnsafeMutableRawPointer) -> UnsafeMutableRawPointer {
            #if canImport(Darwin) || canImport(Glibc) || canImport(Musl)
                guard let functions, let frame = functions.realFrame(functions.current(), address, nil, nil) else {
                    return address
                }
                return frame
            #else
                return address
            #endif
        }

        #if canImport(Darwin) || canImport(Glibc) || canImport(Musl)
            typealias Current = @convention(c) () -> UnsafeMutableRawPointer?
            typealias RealFrame =
                @convention(c) (
                    UnsafeMutableRawPointer?, UnsafeMutableRawPointer?,
                    UnsafeMutablePointer<UnsafeMutableRawPointer?>?, UnsafeMutablePointer<UnsafeMutableRawPointer?>?
                ) -> UnsafeMutableRawPointer?

            /// `__asan_get_current_fake_stack` and `__asan_addr_is_in_fake_stack`, looked up
            /// with `dlsym` in every loaded image; `nil` when the process runs without the
            /// sanitizer.
            private static let functions: (current: Current, realFrame: RealFrame)? = {
                #if canImport(Darwin)
                    let everywhere = UnsafeMutableRawPointer(bitPattern: -2)
                #else
                    let everywhere: UnsafeMutableRawPointer? = nil
                #endif
                guard let current = dlsym(everywhere, "__asan_get_current_fake_stack"),
                    let realFrame = dlsym(everywhere, "__asan_addr_is_in_fake_stack")
                else { return nil }
                return (unsafeBitCast(current, to: Current.self), unsafeBitCast(realFrame, to: RealFrame.self))
            }()
        #endif
    }

    /// The lowest address of the current thread's stack, if the platform tells.
    private static func lowestAddress() -> UInt? {
        #if canImport(Darwin)
            let thread = pthread_self()
            let top = UInt(bitPattern: pthread_get_stackaddr_np(thread))
            let size = UInt(pthread_get_stacksize_np(thread))
            return top > size ? top - size : nil
        #elseif canImport(Glibc) || canImport(Musl)
            if let key = lowestAddressKey, let cached = pthread_getspecific(key) { return UInt(bitPattern: cached) }
            guard let getAttributes = threadAttributesFunction else { return nil }
            var attributes = pthread_attr_t()
            guard getAttributes(pthread_self(), &attributes) == 0 else { return nil }
            defer { pthread_attr_destroy(&attributes) }
            var address: UnsafeMutableRawPointer?
            var size = 0
            guard pthread_attr_getstack(&attributes, &address, &size) == 0, let address else { return nil }
            if let key = lowestAddressKey { pthread_setspecific(key, address) }
            return UInt(bitPattern: address)
        #else
            return nil
        #endif
    }

    #if canImport(Glibc) || canImport(Musl)
        /// The thread-specific slot that keeps each thread's lowest stack address once read
        /// (the address itself, as the slot's pointer), so that it is read once per thread:
        /// for the main thread, `pthread_getattr_np` parses `/proc/self/maps`, which took
        /// longer than parsing a predicate. `nil` when no slot could be made.
        private static let lowestAddressKey: pthread_key_t? = {
            var key = pthread_key_t()
            return pthread_key_create(&key, nil) == 0 ? key : nil
        }()

        /// `pthread_getattr_np`, looked up with `dlsym` because the C library declares it only
        /// under `_GNU_SOURCE`, which Swift's `Glibc` module does not define; `nil` where the
        /// lookup fails (as in a static binary).
        private static let threadAttributesFunction:
            (@convention(c) (pthread_t, UnsafeMutablePointer<pthread_attr_t>) -> Int32)? = {
                guard let symbol = dlsym(nil, "pthread_getattr_np") else { return nil }
                return unsafeBitCast(
                    symbol, to: (@convention(c) (pthread_t, UnsafeMutablePointer<pthread_attr_t>) -> Int32).self)
            }()
    #endif
}
