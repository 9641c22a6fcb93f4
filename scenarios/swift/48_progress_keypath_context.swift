// Apple's UIKitCatalog sample (ProgressViewController.swift): a progress
// observed by #keyPath(Progress.fractionCompleted) with a context, the
// classic addObserver/observeValue pair; the timer and the progress views
// are a loop and a print here.
import Foundation

private var progressViewKVOContext = 0

final class ProgressViewController: NSObject {
    let progress = Progress(totalUnitCount: 10)
    override init() {
        super.init()
        progress.addObserver(
            self, forKeyPath: #keyPath(Progress.fractionCompleted), options: [.new],
            context: &progressViewKVOContext)
    }
    func stop() {
        progress.removeObserver(
            self, forKeyPath: #keyPath(Progress.fractionCompleted), context: &progressViewKVOContext)
    }
    override func observeValue(
        forKeyPath keyPath: String?, of object: Any?, change: [NSKeyValueChangeKey: Any]?,
        context: UnsafeMutableRawPointer?
    ) {
        guard context == &progressViewKVOContext else {
            super.observeValue(forKeyPath: keyPath, of: object, change: change, context: context)
            return
        }
        print("fractionCompleted:", change?[.newKey] ?? "-")
    }
}

let controller = ProgressViewController()
while controller.progress.completedUnitCount < controller.progress.totalUnitCount {
    controller.progress.completedUnitCount += 1
}
print("finished:", controller.progress.isFinished)
controller.stop()
controller.progress.completedUnitCount = 0
