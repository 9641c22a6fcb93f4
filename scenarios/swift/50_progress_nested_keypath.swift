// A nested key path from the program's own class into a Progress:
// drewag/Decree's ProgressObserver (Sources/Decree/Private/ProgressObserver.swift,
// commit e7fa97c) observed \.subject.progress.fractionCompleted of a
// URLSessionTask; a Download stands in for the task. Replacing the middle
// object or the first one observes through the new one.
import Foundation

final class Download: NSObject {
    @objc dynamic var progress = Progress(totalUnitCount: 4)
}

final class ProgressObserver: NSObject {
    @objc dynamic var download: Download
    var observation: NSKeyValueObservation?
    init(for download: Download, onChange: @escaping (Double) -> Void) {
        self.download = download
        super.init()
        observation = observe(\.download.progress.fractionCompleted, options: [.initial, .new]) { _, change in
            guard let value = change.newValue else { return }
            onChange(value)
        }
    }
}

let download = Download()
let observer = ProgressObserver(for: download) { print("fraction:", $0) }
for _ in 0..<4 { download.progress.completedUnitCount += 1 }
download.progress = Progress(totalUnitCount: 2)
let other = Download()
other.progress.completedUnitCount = 3
observer.download = other
observer.observation?.invalidate()
