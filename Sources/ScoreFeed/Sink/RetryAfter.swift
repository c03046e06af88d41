import Foundation

/// Parses an HTTP `Retry-After` header: a number of seconds (`120`) or an HTTP date
/// (`Wed, 21 Oct 2015 07:28:00 GMT`, also the obsolete RFC 850 and asctime forms).
public enum RetryAfter {
    /// Seconds to wait from `now` (never negative), or nil when the value is not understood.
    public static func seconds(_ value: String, now: Date) -> TimeInterval? {
        let text = value.trimmingCharacters(in: .whitespaces)
        if let seconds = Double(text), seconds.isFinite {
            return max(0, seconds)
        }
        for format in ["EEE, dd MMM yyyy HH:mm:ss zzz", "EEEE, dd-MMM-yy HH:mm:ss zzz", "EEE MMM d HH:mm:ss yyyy"] {
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = TimeZone(identifier: "GMT")
            formatter.dateFormat = format
            if let date = formatter.date(from: text) {
                return max(0, date.timeIntervalSince(now))
            }
        }
        return nil
    }
}
