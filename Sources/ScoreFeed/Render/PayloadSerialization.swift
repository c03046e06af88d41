import Foundation

/// The ways a push's payload reaches APNs that the size guard keeps within APNs' limit (4096
/// bytes per device push, 5120 per broadcast push).
///
/// ScoreFeed writes one of them, ``compact``: the record's `payload`, byte for byte, is what a
/// sender should send. Many senders do not send those bytes, though: they parse the payload into
/// an object and let their client library serialize it again, and the common defaults are larger
/// (Python's `json.dumps` puts a space after every `,` and `:`, and by default writes every
/// non-ASCII character as `\uXXXX`: 6 bytes, 12 for an emoji's surrogate pair). A payload cut to
/// fit only the compact bytes is refused by APNs (`413 PayloadTooLarge`) when such a sender
/// re-serializes it, so the guard trims until the largest of these serializations fits.
///
/// Each size is computed exactly from the payload's JSON (``size(of:)``), not estimated: the same
/// keys and values, spelled as that serializer spells them. Key order does not change a size.
public enum PayloadSerialization: String, CaseIterable, Sendable {
    /// The record's `payload` bytes as they are: no white space, non-ASCII text as raw UTF-8,
    /// `/` as is. What ScoreFeed sends, and what Python's
    /// `json.dumps(payload, separators=(",", ":"), ensure_ascii=False)` and JavaScript's
    /// `JSON.stringify` write for it.
    case compact
    /// Compact, with every `/` escaped as `\/`: Foundation's `JSONEncoder` (and
    /// `JSONSerialization`) with their default options, re-encoding the payload's keys and values.
    case escapedSlashes
    /// `", "` and `": "` separators, non-ASCII text as raw UTF-8: Python's
    /// `json.dumps(payload, ensure_ascii=False)`, which is what `aioapns` sends.
    case spaced
    /// `", "` and `": "` separators, every character outside `U+0020…U+007E` as `\uXXXX` (a
    /// surrogate pair, 12 bytes, above `U+FFFF`): Python's plain `json.dumps(payload)`.
    case spacedASCII

    /// How the manual and refusal messages name it.
    public var summary: String {
        switch self {
        case .compact: return "compact UTF-8, as sent"
        case .escapedSlashes: return "compact with \\/ (JSONEncoder's default)"
        case .spaced: return "with \", \" and \": \" separators (Python's json.dumps(…, ensure_ascii=False), aioapns)"
        case .spacedASCII: return "with spaced separators and non-ASCII as \\uXXXX (Python's json.dumps default)"
        }
    }
}
