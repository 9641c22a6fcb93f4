// source: the WebViewStore pattern of several SwiftUI packages on GitHub
// (setupObservers: a generic subscriber(for:) observing with [.prior] and
// sending objectWillChange when change.isPrior). UIKit aside: WKWebView is
// replaced by a model class and objectWillChange.send() by a print.
import Foundation

class WebPage: NSObject {
    @objc dynamic var title: String? = nil
    @objc dynamic var isLoading = false
    @objc dynamic var estimatedProgress = 0.0
}

class WebViewStore {
    let webView: WebPage
    private var observers: [NSKeyValueObservation] = []

    init(webView: WebPage = WebPage()) {
        self.webView = webView
        setupObservers()
    }

    private func setupObservers() {
        func subscriber<Value>(for keyPath: KeyPath<WebPage, Value>) -> NSKeyValueObservation {
            return webView.observe(keyPath, options: [.prior]) { _, change in
                if change.isPrior {
                    print("objectWillChange")
                }
            }
        }
        // Setup observers for all KVO compliant properties
        observers = [
            subscriber(for: \.title),
            subscriber(for: \.isLoading),
            subscriber(for: \.estimatedProgress),
        ]
    }
}

let store = WebViewStore()
store.webView.isLoading = true
store.webView.estimatedProgress = 0.5
store.webView.title = "Example"
