import _KVOTestSupport
import KVORun
import Testing

/// SPEC §3 and §8.2, rules 4 and 5 of issue 27, through a whole run: text
/// describes numbers as NSNumber does and quotes them inside descriptions;
/// JSON keeps the number.
@Suite struct NumberOutputTests {
    let source = """
        class Account { var rate: Double = 0; var tags: [Any] = [] }
        class Person { }
        let acct = Account()
        let alice = Person()
        acct.addObserver(alice, forKeyPath: "rate", options: [.new, .old])
        acct.rate = 0.07
        acct.rate = 200
        print(acct.value(forKey: "rate"), 0.1 + 0.2, "\\(0.07)")
        acct.tags = ["com.example", "first_name", "plain", 2.5, 6, -1]
        print(acct.tags)
        print(acct.value(forKey: "tags"))
        print("first_name")
        """

    @Test func textDescribesAndQuotesNumbersAsFoundationDoes() {
        let result = run(source)
        #expect(result.status == 0, "\(result)")
        #expect(
            result.out == """
                acct.rate → alice {kind = 1; new = "0.07000000000000001"; old = 0}
                acct.rate → alice {kind = 1; new = 200; old = "0.07000000000000001"}
                200 0.3 0.07000000000000001
                ("com.example", "first_name", plain, "2.5", 6, "-1")
                ("com.example", "first_name", plain, "2.5", 6, "-1")
                first_name

                """)
    }

    @Test func jsonKeepsTheNumberItself() {
        let result = run(source, format: .json)
        #expect(result.status == 0, "\(result)")
        let lines = result.out.split(separator: "\n").map(String.init)
        #expect(lines.first?.contains(#""change":{"kind":1,"new":0.07,"old":0}"#) == true, "\(lines)")
        #expect(lines.count > 1 && lines[1].contains(#""change":{"kind":1,"new":200,"old":0.07}"#), "\(lines)")
    }
}
