import CBuildInfo

/// kvo-run's version, shown by `--version` and the REPL's banner.
public enum Version {
    public static let number = "0.1.0"
    public static let banner = "kvo-run \(number)"
    /// The git revision of the build (`make` records it), or "unknown revision".
    public static let revision = String(cString: kvo_build_revision())
    /// What `--version` prints: `kvo-run 0.1.0 (git 8226aa1)`.
    public static let full =
        revision == "unknown revision"
        ? "\(banner) (unknown revision)" : "\(banner) (git \(revision))"
}
