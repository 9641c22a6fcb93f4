/// How a will phase reached an observance.
public enum ExplainedRoute {
    /// The observance watches the changing key itself.
    case direct
    /// Through dependent keys: the chain from the changing key to the observed
    /// one (LabColor: `lComponent`, `redComponent`, `color`).
    case dependent([String])
    /// Through a key path: the forwarding observance on `via` (the changed
    /// object), registered for the root observance.
    case forwarded(via: ExplainedObservance)
}
