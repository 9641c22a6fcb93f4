import KVOOutput

/// A JUnit XML report of a golden run, as CI systems read it.
struct JUnitReport {
    private var cases: [(name: String, seconds: Double, failure: String?)] = []

    mutating func add(_ name: String, seconds: Double, failure: String?) {
        cases.append((name, seconds, failure))
    }

    var xml: String {
        let failures = cases.filter { $0.failure != nil }.count
        let total = cases.reduce(0) { $0 + $1.seconds }
        var text = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        text += "<testsuites tests=\"\(cases.count)\" failures=\"\(failures)\" time=\"\(Self.seconds(total))\">\n"
        text +=
            "  <testsuite name=\"kvo-run test\" tests=\"\(cases.count)\" failures=\"\(failures)\" time=\"\(Self.seconds(total))\">\n"
        for item in cases {
            let name = XMLText.escaped(item.name)
            text += "    <testcase classname=\"golden\" name=\"\(name)\" time=\"\(Self.seconds(item.seconds))\""
            if let failure = item.failure {
                text +=
                    ">\n      <failure message=\"output differs from the .out file\">\(XMLText.escaped(failure))</failure>\n"
                text += "    </testcase>\n"
            } else {
                text += "/>\n"
            }
        }
        return text + "  </testsuite>\n</testsuites>\n"
    }

    static func seconds(_ value: Double) -> String { String((value * 1000).rounded() / 1000) }
}
