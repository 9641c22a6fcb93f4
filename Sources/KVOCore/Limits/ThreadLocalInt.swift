#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// One of KVOCore's fenced pointer tricks (PointerTricks.swift says which).

/// An `Int` kept per thread, in a POSIX thread-specific slot: recursion
/// guards that must not be shared by two runs on two threads (a process-wide
/// static would be), and the stack guard of the thread a run is on.
///
/// Safe because the value is stored as the slot's pointer bits, never
/// dereferenced: no allocation, nothing to free when the thread ends, and a
/// thread that never set it reads 0.
struct ThreadLocalInt: Sendable {
    private let key: pthread_key_t

    init() {
        var key = pthread_key_t()
        pthread_key_create(&key, nil)
        self.key = key
    }

    var value: Int {
        get { Int(bitPattern: pthread_getspecific(key)) }
        nonmutating set { pthread_setspecific(key, UnsafeRawPointer(bitPattern: newValue)) }
    }
}
