import _KVOTestSupport
import KVOHost
@testable import KVOOutput
import Testing
import KVOCore
@testable import KVOScript

/// Notifications to and uses of released objects (docs/language.md#lifetime).
@Suite struct ReleasedObjectRunTests: RunExpectations {
    @Test func notificationToAReleasedObserver() {
        // docs/language.md#lifetime.
        expectRun(
            """
            class A { var n: Int = 0 }
            class P { }
            let a = A()
            let p = P()
            a.addObserver(p, forKeyPath: "n")
            release(p)
            a.n = 1
            print("not reached")
            """, status: 1, out: "",
            err: """
                t.kvo:7:5: error: *** -[P observeValueForKeyPath:ofObject:change:context:]: message sent to deallocated instance <P: p>
                a.n = 1
                    ^

                """)
    }

    @Test func useOfAReleasedObject() {
        let result = run("class A { var n: Int = 0 }\nlet a = A()\nrelease(a)\nprint(a.n)\n")
        #expect(result.status == 1)
        #expect(result.err.hasPrefix("t.kvo:4:"))
        #expect(result.err.contains("error: use of released object <A: a>\n"))
    }
}
