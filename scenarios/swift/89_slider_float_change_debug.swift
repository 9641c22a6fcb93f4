// A Float property observed the classic way: the observer prints keyPath,
// object and the whole change with debugDescription, then casts the new
// value `as! Float`. The change carries an NSNumber made from a Float, which
// describes itself with %0.7g (`new: 0.3`, not 0.30000001192092896), and
// casts back to Float exactly.
// Source: AbcTM/KVO, KVOStu/KVOStu/ViewController.swift (observing a
// UISlider's `value`). Changed: UIKit is not available, so the slider is a
// small NSObject with `@objc dynamic var value: Float` and the label a
// String property; viewDidLoad/viewDidDisappear are called directly, and
// the slider moves twice (ours).
import Foundation

class Slider: NSObject {
    @objc dynamic var value: Float = 0
}

class ViewController: NSObject {
    let slider = Slider()
    var showLabelText = ""

    func viewDidLoad() {
        // 注册成为slider属性的观察着
        slider.addObserver(self, forKeyPath: "value", options: .new, context: nil)
    }

    func viewDidDisappear() {
        // 移除注册slider属性的观察
        slider.removeObserver(self, forKeyPath: "value")
    }

    override func observeValue(forKeyPath keyPath: String?, of object: Any?, change: [NSKeyValueChangeKey : Any]?, context: UnsafeMutableRawPointer?) {
        print("1-keyPath:\(keyPath),object:\(object.debugDescription),chane:\(change.debugDescription)")
        if keyPath == "value", let change = change {
            print("2-keyPath:\(keyPath),object:\(object.debugDescription),chane:\(change.debugDescription)")
            let value = change[NSKeyValueChangeKey.newKey] as! Float
            showLabelText = "\(value)"
        }
    }
}

let vc = ViewController()
vc.viewDidLoad()
vc.slider.value = 0.3
print(vc.showLabelText)
vc.slider.setValue(0.75, forKey: "value")
print(vc.showLabelText, vc.slider.value(forKey: "value") as Any)
vc.viewDidDisappear()
