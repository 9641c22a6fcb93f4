/// One declared property; shared by subclasses, which inherit its slot.
public final class PropertyInfo {
    public enum Storage {
        case stored(slot: Int)
        case computed
    }

    public let name: String
    public let type: ValueType
    public var storage: Storage
    public var isManual: Bool
    /// `@affectedBy(…)` key paths.
    public var affectedBy: [String]
    /// The default of a stored property; the interpreter may set it from the
    /// declaration's initial value.
    public var defaultValue: Value {
        didSet { hierarchy?.propertyGeneration &+= 1 }
    }
    /// The hierarchy of the class that declares this property (set by
    /// `ClassInfo.addProperty`): a new default makes its caches stale.
    var hierarchy: ClassHierarchy?
    /// A computed property's getter.
    public var getter: ((KVOObject) throws -> Value)?
    /// A custom `set { }` block, which replaces the plain store.
    public var setter: ((KVOObject, Value) throws -> Void)?
    /// Declared with a `set { }` block, known before the block is compiled,
    /// so whether the property is read-only never depends on compile order.
    public var hasSetter = false
    /// A Swift property that is not `@objc`: KVC cannot see it.
    public var kvcHidden = false
    /// A compiled program's stored property whose getter reads what its
    /// setter stored (`_KVOClassTable.property(…, stored: true)`): its
    /// setter can hand the engine its values.
    public var readsOwnStorage = false
    /// A computed property whose getter only computes from its object's
    /// own stored values, with no effect and nothing else read (the
    /// scenario language proves it of a body: PureGetter.swift). Reading
    /// it at any moment of a change gives what reading it at the change's
    /// will and did would, so a set of a key it depends on can skip the
    /// pending change (`KVORuntime.setDirectlyObserved`).
    public var getterIsPure = false
    /// Whether KVC has stored a collection here that the declared type
    /// refused (`setValue(["a"], forKey: "counts")` of an `[Int]`, kept as
    /// it is: SPEC §4.2). Until it has, every object's value of this
    /// property holds elements of its type, so a change in place checks
    /// only the new element (`KVORuntime.changeArrayInPlace`). Never reset.
    var mayHoldRefusedElements = false
    /// The class `automatic` was last worked out for.
    var automaticClass: ObjectIdentifier?
    var automatic = true

    public init(
        name: String, type: ValueType, storage: Storage, isManual: Bool = false,
        affectedBy: [String] = [], defaultValue: Value? = nil
    ) {
        self.name = name
        self.type = type
        self.storage = storage
        self.isManual = isManual
        self.affectedBy = affectedBy
        self.defaultValue = defaultValue ?? type.zeroValue
    }

    public var slot: Int? {
        if case .stored(let slot) = storage { return slot }
        return nil
    }

    public var isReadOnly: Bool {
        if case .computed = storage { return setter == nil && !hasSetter }
        return false
    }
}
