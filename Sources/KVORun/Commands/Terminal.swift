#if canImport(Glibc)
import Glibc
#endif

enum Terminal {
    /// Colour only on a terminal, never with NO_COLOR or TERM=dumb.
    static func colorAllowed(descriptor: Int32) -> Bool {
        if getenv("NO_COLOR") != nil { return false }
        if let term = getenv("TERM"), String(cString: term) == "dumb" { return false }
        return isatty(descriptor) != 0
    }
}
