/// Exit statuses of docs/language.md#diagnostics.
public enum ExitStatus {
    public static let success: Int32 = 0
    public static let failure: Int32 = 1
    public static let scriptErrors: Int32 = 2
    public static let usage: Int32 = 64
    /// Standard output (or a golden's capture) could not be written: a full
    /// disk, a closed pipe. 1, not sysexits' 74, so that every way a run can
    /// fail stays within the statuses of docs/language.md#diagnostics.
    public static let outputFailed: Int32 = 1
}
