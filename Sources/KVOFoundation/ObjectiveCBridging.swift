import KVOCore

// What Objective-C's bridging gives on a Mac and swift-corelibs-foundation
// does not (SPEC §11.8): a struct Foundation boxes is an `NSValue` that casts
// back (`value(forKey: "origin") as? CGPoint`), and a `CGFloat` is an
// `NSNumber` holding a double (`as AnyObject`, `NSNumber as? CGFloat`).
// Linux's dynamic casts consult `_ObjectiveCBridgeable` as a Mac's do (that
// is how corelibs' `NSArray` casts to `[String]`), so a conformance here is
// all a cast needs.

/// The struct in `value` when its Objective-C type encoding names `name`
/// (`{CGPoint=dd}`), as `-[NSValue pointValue]` and its siblings give it.
private func _kvoUnbox<T>(_ value: NSValue, _ name: String, _ unbox: (NSValue) -> T) -> T? {
    String(cString: value.objCType).hasPrefix("{" + name + "=") ? unbox(value) : nil
}

extension CGPoint: @retroactive _ObjectiveCBridgeable {
    public typealias _ObjectType = NSValue
    public func _bridgeToObjectiveC() -> NSValue { NSValue(point: self) }

    public static func _forceBridgeFromObjectiveC(_ source: NSValue, result: inout CGPoint?) {
        result = _kvoUnbox(source, "CGPoint", \.pointValue) ?? .zero
    }

    public static func _conditionallyBridgeFromObjectiveC(_ source: NSValue, result: inout CGPoint?) -> Bool {
        result = _kvoUnbox(source, "CGPoint", \.pointValue)
        return result != nil
    }

    /// A nil NSValue unboxes to zero, as a message to nil answers.
    public static func _unconditionallyBridgeFromObjectiveC(_ source: NSValue?) -> CGPoint {
        source.flatMap { _kvoUnbox($0, "CGPoint", \.pointValue) } ?? .zero
    }
}

extension CGSize: @retroactive _ObjectiveCBridgeable {
    public typealias _ObjectType = NSValue
    public func _bridgeToObjectiveC() -> NSValue { NSValue(size: self) }

    public static func _forceBridgeFromObjectiveC(_ source: NSValue, result: inout CGSize?) {
        result = _kvoUnbox(source, "CGSize", \.sizeValue) ?? .zero
    }

    public static func _conditionallyBridgeFromObjectiveC(_ source: NSValue, result: inout CGSize?) -> Bool {
        result = _kvoUnbox(source, "CGSize", \.sizeValue)
        return result != nil
    }

    public static func _unconditionallyBridgeFromObjectiveC(_ source: NSValue?) -> CGSize {
        source.flatMap { _kvoUnbox($0, "CGSize", \.sizeValue) } ?? .zero
    }
}

extension CGRect: @retroactive _ObjectiveCBridgeable {
    public typealias _ObjectType = NSValue
    public func _bridgeToObjectiveC() -> NSValue { NSValue(rect: self) }

    public static func _forceBridgeFromObjectiveC(_ source: NSValue, result: inout CGRect?) {
        result = _kvoUnbox(source, "CGRect", \.rectValue) ?? .zero
    }

    public static func _conditionallyBridgeFromObjectiveC(_ source: NSValue, result: inout CGRect?) -> Bool {
        result = _kvoUnbox(source, "CGRect", \.rectValue)
        return result != nil
    }

    public static func _unconditionallyBridgeFromObjectiveC(_ source: NSValue?) -> CGRect {
        source.flatMap { _kvoUnbox($0, "CGRect", \.rectValue) } ?? .zero
    }
}

extension CGFloat: @retroactive _ObjectiveCBridgeable {
    public typealias _ObjectType = NSNumber
    public func _bridgeToObjectiveC() -> NSNumber { NSNumber(value: Double(self)) }

    public static func _forceBridgeFromObjectiveC(_ source: NSNumber, result: inout CGFloat?) {
        result = CGFloat(source.doubleValue)
    }

    public static func _conditionallyBridgeFromObjectiveC(_ source: NSNumber, result: inout CGFloat?) -> Bool {
        result = CGFloat(source.doubleValue)
        return true
    }

    public static func _unconditionallyBridgeFromObjectiveC(_ source: NSNumber?) -> CGFloat {
        CGFloat(source?.doubleValue ?? 0)
    }
}
