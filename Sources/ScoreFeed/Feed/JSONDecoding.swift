/// Which reader turns JSON bytes into values on the hot paths (`serve`'s lines, fixture files).
enum JSONDecoding: Sendable {
    /// The byte reader (``JSONScanner``), and `JSONDecoder` only for what it declines (malformed
    /// or unusual input), so results and messages are `JSONDecoder`'s: the default.
    case bytes
    /// `JSONDecoder` alone: the reference the differential tests and fuzz targets compare with.
    case foundation
}
