// A Bool in an NSDictionary is an NSNumber, `__NSCFBoolean` (SPEC §11.8):
// the dictionary's subscript hands back the object Objective-C holds, as
// on a Mac, where corelibs' gives back a Swift Bool.
// @sum over an NSArray of NSDictionaries counts the `true`s: each Bool in
// a dictionary is an NSNumber (a __NSCFBoolean), and @sum adds them as
// numbers, giving 2, read back as an Optional NSNumber. Then the same array
// asked for the plain key maps value(forKey:) over the dictionaries, an
// NSArray of NSStrings that casts `as? [String]`.
// Source: Apress/troubleshooting-xcode, "Chapter 2-8-Magical Way of Counting
// Elements/Swift 2.0/TYPE 1/CountingElements/CountingElements/ViewController.swift"
// (Magno Urbano, "Troubleshooting Xcode"; its comment: "this will print 2").
// Changed: the body of viewDidLoad runs at top level; Swift 2's
// `array!.valueForKeyPath("@sum.selected")?.integerValue` (AnyObject
// lookup) is written `(... as? NSNumber)?.intValue`, so the print shows
// Optional(2), as Swift 2's `print(count)` of an `Int?` also did; the last
// three prints are ours.
import Foundation

// creating the dictionaries
let dict1 : NSDictionary = ["object"  : "television" ,
                           "selected" : true]
let dict2 : NSDictionary = ["object"  : "phone",
                          "selected"  : false]
let dict3 : NSDictionary = ["object"  : "book",
                          "selected"  : true]

// creating the array
let array : NSArray? = [dict1, dict2, dict3]

// this is the magical command
let count = (array!.value(forKeyPath: "@sum.selected") as? NSNumber)?.intValue

print(count) // this will print 2 on console
print(array!.value(forKeyPath: "@sum.selected") as Any, array!.value(forKeyPath: "@count") as Any)
print(array!.value(forKey: "object") as? [String] as Any)
print(type(of: dict1["selected"]!), dict1["selected"] as? Bool as Any)
