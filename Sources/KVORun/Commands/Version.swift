/// kvo-run's version, shown by `--version` and the REPL's banner.
public enum Version {
    public static let number = "0.1.0"
    public static let banner = "kvo-run \(number)"
}
