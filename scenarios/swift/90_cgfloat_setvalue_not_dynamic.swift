// A CGFloat property that is @objc but not dynamic: setValue(1, forKey:)
// goes through the Objective-C setter, converts the NSNumber to the CGFloat
// (a Double to KVC) and notifies; the plain Swift assignment `value = 3`
// stores directly and notifies nobody (kvo-run's warning says so on
// standard error; a Mac is silent). value(forKey:) reads the CGFloat back as
// an NSNumber, and `as? CGFloat` succeeds.
// Source: pearl7721User1/CodeSnippets, TestsOnKVO/TestsOnKVO/ViewController.swift
// (its author's experiment: which of the two buttons reaches observeValue).
// Changed: UIViewController is NSObject; the two @IBActions are called in
// order btn1, btn2; the last two prints are ours.
import Foundation

class ViewController: NSObject {

    @objc var value: CGFloat = 0

    func btn2Tapped() {
        value = 3

        print(value)
    }
    func btn1Tapped() {
        setValue(1, forKey: "value")

        print(value)
    }

    func viewDidLoad() {
        self.addObserver(self, forKeyPath: #keyPath(ViewController.value), options: [.new], context: nil)
    }

    override func observeValue(forKeyPath keyPath: String?, of object: Any?, change: [NSKeyValueChangeKey : Any]?, context: UnsafeMutableRawPointer?) {

        print("abccdfdf")
    }
}

let vc = ViewController()
vc.viewDidLoad()
vc.btn1Tapped()
vc.btn2Tapped()
print(vc.value(forKey: "value") as Any, vc.value(forKey: "value") as? CGFloat as Any)
vc.setValue(2.5, forKey: "value")
print(vc.value, vc.value(forKey: "value") as Any)
