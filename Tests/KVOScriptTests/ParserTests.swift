import _KVOTestSupport
import KVOHost
import Testing
import KVOCore
@testable import KVOScript

/// S-expressions of parsed code, so expectations show the tree's shape.
enum SX {
    static func expr(_ e: Expr) -> String {
        switch e {
        case .literal(let value, _):
            if case .string(let text) = value { return "\"\(text)\"" }
            if case .null = value { return "nil" }
            return value.printDescription
        case .interpolation(let parts, _):
            let inner = parts.map { part -> String in
                switch part {
                case .text(let text): return "\"\(text)\""
                case .expr(let e): return expr(e)
                }
            }
            return "(interp " + inner.joined(separator: " ") + ")"
        case .identifier(let name, _, _): return name
        case .selfRef: return "self"
        case .dotName(let name, _): return "." + name
        case .arrayLiteral(let elements, _): return "[" + elements.map(expr).joined(separator: " ") + "]"
        case .dictionaryLiteral(let pairs, _):
            if pairs.isEmpty { return "[:]" }
            return "[" + pairs.map { expr($0.key) + ": " + expr($0.value) }.joined(separator: " ") + "]"
        case .member(let receiver, let name, _): return "(. \(expr(receiver)) \(name))"
        case .superMember(let name, _): return "super.\(name)"
        case .call(let callee, let arguments, _):
            let args = arguments.map { ($0.label.map { $0 + ": " } ?? "") + expr($0.value) }
            return "(call " + ([expr(callee)] + args).joined(separator: " ") + ")"
        case .subscripted(let base, let index, _): return "(sub \(expr(base)) \(expr(index)))"
        case .unary(let op, let operand, _): return "(\(op) \(expr(operand)))"
        case .binary(let op, let lhs, let rhs, _): return "(\(op) \(expr(lhs)) \(expr(rhs)))"
        case .chain(let first, let links, _):
            // Printed as the nested binaries it stands for.
            return links.reduce(expr(first)) { "(\($1.op) \($0) \(expr($1.operand)))" }
        case .keyPath(let literal, _): return "\\\(literal.root ?? "").\(literal.path)"
        case .closure(let closure, _):
            return "(closure (\(closure.parameters.joined(separator: " "))) \(block(closure.body)))"
        case .cast(let inner, let type, let forced, let conditional, _):
            return "(as\(forced ? "!" : conditional ? "?" : "") \(expr(inner)) \(type.swiftName))"
        case .forceUnwrap(let inner, _): return "(! \(expr(inner)))"
        }
    }

    static func block(_ statements: [Stmt]) -> String {
        "{" + statements.map(stmt).joined(separator: " ") + "}"
    }

    static func stmt(_ s: Stmt) -> String {
        switch s {
        case .expression(let e): return expr(e)
        case .binding(let isLet, let name, let type, let value, _):
            var text = "(\(isLet ? "let" : "var") \(name)"
            if let type { text += ": \(type.type)" }
            if let value { text += " = \(expr(value))" }
            return text + ")"
        case .assign(let target, let op, let value, _): return "(\(op) \(expr(target)) \(expr(value)))"
        case .ifElse(let branches, let otherwise, _):
            // Printed nested, as `else { if … }`: the flat chain reads as it always did.
            var text = otherwise.map { " else " + block($0) } ?? ""
            for (position, branch) in branches.enumerated().reversed() {
                let clause = "(if \(expr(branch.condition)) \(block(branch.body))" + text + ")"
                text = position == 0 ? clause : " else {\(clause)}"
            }
            return text
        case .forIn(let name, let sequence, let body, _): return "(for \(name) in \(expr(sequence)) \(block(body)))"
        case .whileLoop(let condition, let body, _): return "(while \(expr(condition)) \(block(body)))"
        case .doCatch(let body, let name, let handler, _):
            return "(do \(block(body)) catch\(name.map { " " + $0.0 } ?? "") \(block(handler)))"
        case .returnValue(let value, _): return value.map { "(return \(expr($0)))" } ?? "(return)"
        case .release(let target, _): return "(release \(expr(target)))"
        case .function(let decl):
            return
                "(\(decl.isStatic ? "static " : "")func \(decl.name)(\(decl.parameters.joined(separator: " "))) \(block(decl.body)))"
        case .classDecl(let decl): return "(class \(decl.name))"
        case .context(let name, _): return "(context \(name))"
        case .importModule(let name, _): return "(import \(name))"
        case .guardLet(let name, let value, let otherwise, _):
            return "(guard \(name.map { "let \($0) = " } ?? "")\(expr(value)) else \(block(otherwise)))"
        case .throwError(let value, _): return "(throw \(expr(value)))"
        }
    }
}

@Suite struct ParserTests {
    /// Parses `source`, expecting no diagnostics, and returns one S-expression per statement.
    func parse(_ source: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) -> [String] {
        let (statements, diagnostics) = Parser.parse(source)
        #expect(
            diagnostics.isEmpty, "unexpected diagnostics: \(diagnostics.map(\.message))", sourceLocation: sourceLocation
        )
        return statements.map(SX.stmt)
    }

    func expression(_ source: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) -> String {
        parse(source, sourceLocation: sourceLocation).first ?? "<nothing>"
    }

    /// `line:column: message` for each diagnostic.
    func errors(_ source: String) -> [String] {
        Parser.parse(source).diagnostics.map { "\($0.location.line):\($0.location.column): \($0.message)" }
    }

    func classDecl(_ source: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) -> ClassDecl? {
        let (statements, diagnostics) = Parser.parse(source)
        #expect(
            diagnostics.isEmpty, "unexpected diagnostics: \(diagnostics.map(\.message))", sourceLocation: sourceLocation
        )
        for statement in statements {
            if case .classDecl(let decl) = statement { return decl }
        }
        Issue.record("no class in the source", sourceLocation: sourceLocation)
        return nil
    }

    // MARK: Statements

    @Test func bindingsAndAssignments() {
        #expect(
            parse(
                """
                context Ctx
                let a = 1
                var b: Int
                var c: [String] = []
                a = 2
                b += 3
                acct.owner.name = "x"
                xs[0] = 1
                """) == [
                    "(context Ctx)", "(let a = 1)", "(var b: Int)", "(var c: [String] = [])", "(= a 2)", "(+= b 3)",
                    "(= (. (. acct owner) name) \"x\")", "(= (sub xs 0) 1)",
                ])
    }

    @Test func controlFlow() {
        #expect(
            parse(
                """
                if a < b { print(a) } else if a > b { print(b) } else { print(0) }
                for i in 0..<3 { print(i) }
                for x in xs { }
                while n > 0 { n -= 1 }
                do { f() } catch NSRangeException { print(error.reason) }
                do {
                    f()
                }
                catch {
                    print(error)
                }
                release(a)
                """) == [
                    "(if (< a b) {(call print a)} else {(if (> a b) {(call print b)} else {(call print 0)})})",
                    "(for i in (..< 0 3) {(call print i)})",
                    "(for x in xs {})",
                    "(while (> n 0) {(-= n 1)})",
                    "(do {(call f)} catch NSRangeException {(call print (. error reason))})",
                    "(do {(call f)} catch {(call print error)})",
                    "(release a)",
                ])
    }

    @Test func functionsWithLabelsTypesAndReturn() {
        #expect(
            parse(
                """
                func f(x, _ y, label z: Int) -> Int {
                    return x + y + z
                }
                func g() { return }
                """) == [
                    "(func f(x y z) {(return (+ (+ x y) z))})",
                    "(func g() {(return)})",
                ])
    }

    @Test func callsWithLabelsAndTrailingMembers() {
        #expect(
            expression(#"acct.addObserver(alice, forKeyPath: "balance", options: [.new, .old], context: Ctx)"#)
                == #"(call (. acct addObserver) alice forKeyPath: "balance" options: [.new .old] context: Ctx)"#)
        #expect(expression("a.b().c[1].d") == "(. (sub (. (call (. a b)) c) 1) d)")
        #expect(expression("owner?.name") == "(. owner name)")
        #expect(expression("super.observeValue(k, o, c, x)") == "(call super.observeValue k o c x)")
    }

    /// A `userInfo:` argument may be a dictionary literal (an NSError's,
    /// which the checker verifies); any other is an error, and parsing goes on.
    @Test func dictionaryLiteralsOnlyAsUserInfo() {
        #expect(expression("f(userInfo: [:])") == "(call f userInfo: [:])")
        #expect(
            expression(#"f(userInfo: [NSLocalizedDescriptionKey: "x"])"#)
                == #"(call f userInfo: [NSLocalizedDescriptionKey: "x"])"#)
        #expect(expression("f(userInfo: [\n a: 1,\n b: 2,\n])") == "(call f userInfo: [a: 1 b: 2])")
        #expect(expression("f(userInfo: [1, 2])") == "(call f userInfo: [1 2])")
        let message = "dictionary literals are not supported; use a class with one property per key, or an array"
        #expect(errors("let d = [\"a\": 1]\nlet e = [:]") == ["1:13: " + message, "2:10: " + message])
        #expect(errors("f(userInfo: [a: [b: 1]])") == ["1:19: " + message])
        #expect(
            errors("let d = [1: 2, 3]") == [
                "1:11: " + message,
                "1:17: expected ':' between a key and its value in the dictionary literal, found ']'",
            ])
    }

    @Test func stringInterpolationIsParsed() {
        #expect(expression(#"print("a\(x + 1)b\(o.name)")"#) == #"(call print (interp "a" (+ x 1) "b" (. o name)))"#)
    }

    @Test func semicolonsSeparateStatementsOnALine() {
        #expect(parse("let a = 1; let b = 2;print(a)") == ["(let a = 1)", "(let b = 2)", "(call print a)"])
    }

    // MARK: Precedence

    @Test func arithmeticPrecedence() {
        #expect(expression("1 + 2 * 3 - 4 / 2 % 3") == "(- (+ 1 (* 2 3)) (% (/ 4 2) 3))")
        #expect(expression("(1 + 2) * 3") == "(* (+ 1 2) 3)")
        #expect(expression("a - b - c") == "(- (- a b) c)")
    }

    @Test func logicalAndComparisonPrecedence() {
        #expect(expression("a || b && c == d + 1") == "(|| a (&& b (== c (+ d 1))))")
        #expect(expression("!a && b || c") == "(|| (&& (! a) b) c)")
    }

    @Test func unaryOperators() {
        #expect(expression("-x * 2") == "(* (- x) 2)")
        #expect(expression("-3") == "-3")
        #expect(expression("- -3") == "3")
        #expect(expression("!!flag") == "(! (! flag))")
        #expect(expression("-a.b") == "(- (. a b))")
    }

    @Test func rangesBindLooserThanArithmetic() {
        #expect(parse("for i in 1...n + 1 { }") == ["(for i in (... 1 (+ n 1)) {})"])
        #expect(parse("for i in 0..<xs.count - 1 { }") == ["(for i in (..< 0 (- (. xs count) 1)) {})"])
    }

    @Test func comparisonsDoNotChain() {
        #expect(errors("let x = a < b < c") == ["1:15: '<' cannot follow '<' without parentheses"])
        #expect(errors("let x = a == b != c") == ["1:16: '!=' cannot follow '==' without parentheses"])
        #expect(parse("let x = (a < b) == c") == ["(let x = (== (< a b) c))"])
    }

    // MARK: Multi-line continuation (docs/language.md#lexical)

    @Test func lineContinuesAfterABinaryOperator() {
        #expect(
            parse("let total = 1 +\n    2 *\n\n    3\nprint(total)") == [
                "(let total = (+ 1 (* 2 3)))", "(call print total)",
            ])
        #expect(parse("if a &&\n   b {\n  print(1)\n}") == ["(if (&& a b) {(call print 1)})"])
    }

    @Test func lineContinuesInsideParenthesesAndAfterCommas() {
        #expect(
            parse(
                """
                print(
                    a,
                    b
                )
                let p = Person(firstName: "A",
                               lastName: "B")
                let xs = [
                  1,
                  2,
                ]
                let y = (
                    1 + 2
                )
                """) == [
                    "(call print a b)",
                    #"(let p = (call Person firstName: "A" lastName: "B"))"#,
                    "(let xs = [1 2])",
                    "(let y = (+ 1 2))",
                ])
    }

    @Test func lineContinuesAfterAnAssignment() {
        #expect(parse("x =\n  5") == ["(= x 5)"])
    }

    @Test func parameterListsMaySpanLines() {
        #expect(parse("func f(a,\n       b) {\n  return a\n}") == ["(func f(a b) {(return a)})"])
    }

    @Test func affectedByListMaySpanLines() {
        // docs/language.md#lexical: a line continues when it ends inside '(' or with ','.
        let decl = classDecl(
            """
            class Person {
                var firstName: String = ""
                var lastName: String = ""
                @affectedBy(firstName,
                            lastName)
                var fullName: String { firstName + " " + lastName }
            }
            """)
        #expect(decl?.properties.last?.affectedBy.map(\.0) == ["firstName", "lastName"])
    }

    @Test func aNewlineEndsAStatementOtherwise() {
        #expect(parse("let a = 1\n-2") == ["(let a = 1)", "-2"])
    }

    @Test func twoStatementsOnALineNeedASemicolon() {
        #expect(errors("let a = 1 let b = 2") == ["1:11: consecutive statements on a line must be separated by ';'"])
    }

    // MARK: Classes

    @Test func classWithEveryKindOfMember() throws {
        let decl = try #require(
            classDecl(
                """
                class Account: Base {
                    var balance: Double = 0
                    var owner: Person?
                    var transactions: [Transaction]
                    var tags: Set<String>
                    @manual var interestRate: Double = 0.05
                    @affectedBy(firstName, owner.name)
                    var fullName: String { firstName + " " + lastName }
                    @manual var limit: Double = 0 {
                        set {
                            if newValue != _limit {
                                willChangeValue(forKey: "limit")
                                _limit = newValue
                                didChangeValue(forKey: "limit")
                            }
                        }
                    }
                    var twice: Int {
                        get { return count * 2 }
                        set(newValue) { count = newValue / 2 }
                    }
                    func deposit(amount) { balance = balance + amount }
                    static func automaticallyNotifiesObservers(key) {
                        return key != "interestRate"
                    }
                    @objc dynamic var legacy: Int = 0
                }
                """))
        #expect(decl.name == "Account")
        #expect(decl.superclass?.0 == "Base")
        #expect(
            decl.properties.map(\.name) == [
                "balance", "owner", "transactions", "tags", "interestRate", "fullName", "limit", "twice", "legacy",
            ])
        #expect(
            decl.properties.map { $0.type?.type } == [
                .double, .object("Person"), .array(.object("Transaction")), .set(.string), .double, .string, .double,
                .int,
                .int,
            ])
        #expect(decl.properties.map(\.isManual) == [false, false, false, false, true, false, true, false, false])
        #expect(decl.properties[5].affectedBy.map(\.0) == ["firstName", "owner.name"])
        #expect(
            decl.properties.map { $0.computed.map(SX.expr) } == [
                nil, nil, nil, nil, nil, #"(+ (+ firstName " ") lastName)"#, nil, "(* count 2)", nil,
            ])
        #expect(
            decl.properties.map { $0.initial.map(SX.expr) } == [
                "0", nil, nil, nil, "0.05", nil, "0", nil, "0",
            ])
        #expect(
            decl.properties[6].setter.map(SX.block)
                == #"{(if (!= newValue _limit) {(call willChangeValue forKey: "limit") (= _limit newValue) (call didChangeValue forKey: "limit")})}"#
        )
        #expect(decl.properties[7].setter.map(SX.block) == "{(= count (/ newValue 2))}")
        #expect(decl.methods.map(\.name) == ["deposit", "automaticallyNotifiesObservers"])
        #expect(decl.methods.map(\.isStatic) == [false, true])
        #expect(decl.methods.map(\.parameters) == [["amount"], ["key"]])
        #expect(
            decl.methods.map { SX.block($0.body) } == [
                "{(= balance (+ balance amount))}", #"{(return (!= key "interestRate"))}"#,
            ])
    }

    @Test func classWithoutSuperclassAndEmptyBody() {
        let decl = classDecl("class Person { }\nclass Empty {}")
        #expect(decl?.name == "Person")
        #expect(decl?.superclass == nil)
        #expect(decl?.properties.isEmpty == true)
    }

    @Test func classBodyMayOpenOnTheNextLine() {
        #expect(classDecl("class A\n{\n  var n: Int = 0\n}")?.properties.map(\.name) == ["n"])
    }

    @Test func memberErrors() {
        #expect(
            errors(
                """
                class A {
                    @manual func f() { }
                    @mystery var x: Int
                    var y
                    print(1)
                    static var z: Int
                }
                """) == [
                    "2:13: '@manual' and '@affectedBy' apply to properties, not methods",
                    "3:5: unknown attribute '@mystery'",
                    "4:5: property 'y' needs a type ('var y: Double') or a value",
                    "5:5: expected 'var', 'let', 'func' or 'static func' in the body of class 'A', found 'print'",
                    "6:12: expected 'func' after 'static'",
                ])
    }

    @Test func unknownAttributeSuggestsTheClosest() {
        #expect(
            errors("class A {\n  @manaul var x: Int\n}") == ["2:3: unknown attribute '@manaul'; did you mean 'manual'?"]
        )
    }

    @Test func attributesAndStaticOnlyInClasses() {
        #expect(
            errors("@manual var x = 1\nstatic func f() { }") == [
                "1:1: attributes like '@manual' are only allowed on properties inside a class",
                "2:1: 'static' is only allowed on methods inside a class",
            ])
    }

    // MARK: Recovery

    @Test func severalIndependentErrorsInOneParse() {
        let (statements, diagnostics) = Parser.parse(
            """
            let = 5
            print("one")
            x = = 3
            print("two")
            f(1 2)
            if { }
            print("three")
            """)
        #expect(
            diagnostics.map { "\($0.location.line):\($0.location.column): \($0.message)" } == [
                "1:5: expected a variable name, found '='",
                "3:5: expected an expression, found '='",
                "5:5: expected ',' or ')' in the argument list, found '2'",
                "6:4: expected an expression, found '{'",
            ])
        #expect(statements.map(SX.stmt) == [#"(call print "one")"#, #"(call print "two")"#, #"(call print "three")"#])
    }

    @Test func recoveryInsideBlocksAndClasses() {
        #expect(
            errors(
                """
                func f() {
                    let = 1
                    return 2
                }
                class A {
                    var n: = 3
                    var m: Int = 0
                }
                let ok = )
                print(ok)
                """) == [
                    "2:9: expected a variable name, found '='",
                    "6:12: expected a type, found '='",
                    "9:10: expected an expression, found ')'",
                ])
    }

    @Test func unclosedBlockPointsAtItsBrace() {
        #expect(errors("if true {\n  print(1)\n") == ["1:9: expected '}' to close the block opened here"])
        #expect(errors("class A {\n  var n: Int = 0\n") == ["1:9: expected '}' to close class 'A'"])
    }

    /// Issue 18 replaced "key-path literals are not supported yet" with Swift's block observation.
    @Test func keyPathLiteralsAndTrailingClosuresParseAsObserve() {
        #expect(
            expression(#"let t = o.observe(\.name, options: [.new]) { obj, change in }"#)
                == #"(let t = (call (. o observe) \.name options: [.new] changeHandler: (closure (obj change) {})))"#)
    }

    // MARK: Nesting limit

    @Test(arguments: [
        (
            "parentheses",
            "let x = " + String(repeating: "(", count: 10_000) + "1" + String(repeating: ")", count: 10_000)
        ),
        ("brackets", "let x = " + String(repeating: "[", count: 10_000) + "1" + String(repeating: "]", count: 10_000)),
        (
            "braces",
            String(repeating: "if true {\n", count: 10_000) + "print(1)\n" + String(repeating: "}\n", count: 10_000)
        ),
        // A flat else-if chain is not nesting (issue 15): HostileTextTests.
        ("unary", "let x = " + String(repeating: "!", count: 10_000) + "true"),
        ("negation", "let x = " + String(repeating: "- ", count: 10_000) + "1"),
        ("members", "let x = a" + String(repeating: ".b", count: 10_000)),
        ("calls", "let x = f" + String(repeating: "()", count: 10_000)),
        (
            "interpolations",
            "let x = " + String(repeating: #""\("#, count: 1_000) + "1" + String(repeating: #")""#, count: 1_000)
        ),
        (
            "class bodies",
            "class A { var x: " + String(repeating: "[", count: 10_000) + "Int" + String(repeating: "]", count: 10_000)
                + " }"
        ),
    ])
    func deepNestingGivesOneDiagnosticAndNoCrash(_ name: String, _ source: String) {
        let diagnostics = onLargeStack { Parser.parse(source).diagnostics }
        #expect(
            diagnostics.map(\.message) == [
                "nesting deeper than \(Parser.defaultMaxNesting) levels; split the expression or block"
            ], "\(name)")
        #expect(diagnostics.first?.location.line == 1 || name == "braces")
    }

    @Test func nestingUpToTheLimitIsFine() {
        let source = "let x = " + String(repeating: "(", count: 150) + "1" + String(repeating: ")", count: 150)
        #expect(parse(source) == ["(let x = 1)"])
    }

    @Test func nestingOnTheDefaultThreadDoesNotOverflow() {
        // No large stack here: the limit alone must keep the parser's recursion small.
        let source = "let x = " + String(repeating: "(", count: 10_000) + "1" + String(repeating: ")", count: 10_000)
        #expect(Parser.parse(source).diagnostics.count == 1)
    }
}
