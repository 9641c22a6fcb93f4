// A trap after a KVC call returns, in the same statement (a force unwrap of
// what value(forKey:) gave), is reported at that statement, not at the last
// statement the program's own override ran inside the call (its `return nil`).
// value(forUndefinedKey:) overridden to log and return nil: value(forKey:)
// of an unknown key is then nil, and interpolating it prints `KVC value =
// nil`. The book's next line force-unwraps the same nil (`...!`) and a Mac
// traps there: `Fatal error: Unexpectedly found nil while unwrapping an
// Optional value`, after the override's second log line.
// Source: the book section "KVC – Implementation" (KVCObject.swift and
// main.swift), as published at
// https://trantor.is/content/1hzPIg7nATfYAXeL/30812358-2cc2-4f7c-8718-564d9c1a3df1.xhtml
// Changed: the class and the top-level code are in one file; the book's
// later step (adding a `stringToFind` property) is not in the stored copy
// and is left out.
import Foundation

class KVCObject: NSObject {
    override func value(forUndefinedKey key: String) -> Any? {
        print("we do not have any key for \(key)")
        return nil
    }
}

var kvcObject = KVCObject()
print("KVC value = \(kvcObject.value(forKey: "stringToFind"))")
print("KVC vallue of Second Key = \(String(describing: kvcObject.value(forKey: "numberToFind")!))")
