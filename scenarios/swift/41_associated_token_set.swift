// source: patsluth/Sluthware
// Sluthware/Classes/Foundation/NSObjectProtocol+NSKeyValueObservation.swift
// and Mastodon's NSKeyValueObservation.swift (store(in:)), as found: tokens
// kept in a Set held as an associated object. The use at the end is ours.
import Foundation
import ObjectiveC

fileprivate var _keyValueObservations = Selector(("_keyValueObservations"))

public extension NSObjectProtocol where Self: NSObject
{
	var keyValueObservations: Set<NSKeyValueObservation> {
		get
		{
			if let keyValueObservations =
				objc_getAssociatedObject(self, &_keyValueObservations) as? Set<NSKeyValueObservation> {
				return keyValueObservations
			} else {
				self.keyValueObservations = Set<NSKeyValueObservation>()
				return self.keyValueObservations
			}
		}
		set
		{
			objc_setAssociatedObject(self,
									 &_keyValueObservations,
									 newValue,
									 objc_AssociationPolicy.OBJC_ASSOCIATION_RETAIN_NONATOMIC)
		}
	}
}

extension NSKeyValueObservation {
    func store(in set: inout Set<NSKeyValueObservation>) {
        set.insert(self)
    }
}

class Player: NSObject {
    @objc dynamic var volume = 0.5
}

class PlayerController: NSObject {
    let player = Player()
    func bind() {
        player.observe(\.volume, options: [.new]) { _, change in
            print("volume", change.newValue!)
        }.store(in: &keyValueObservations)
    }
}

let controller = PlayerController()
controller.bind()
controller.player.volume = 0.75
print(controller.keyValueObservations.count)
