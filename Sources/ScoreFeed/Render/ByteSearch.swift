import Foundation

/// Looks for a run of ASCII bytes in text by its bytes: Foundation's `contains` and
/// `range(of:)` compare by Unicode rules or copy, which costs more than the work around them.
enum ByteSearch {
    /// Whether `text` holds `needle`'s bytes.
    static func contains(_ text: UnsafeRawBufferPointer, _ needle: UnsafeRawBufferPointer) -> Bool {
        firstOffset(of: needle, in: text) != nil || needle.isEmpty
    }

    /// Where `needle`'s bytes first start in `text`; nil when they are not there (or `needle` is
    /// empty).
    static func firstOffset(of needle: UnsafeRawBufferPointer, in text: UnsafeRawBufferPointer) -> Int? {
        guard let start = text.baseAddress, let first = needle.first, let bytes = needle.baseAddress, text.count >= needle.count
        else { return nil }
        for offset in 0...(text.count - needle.count) where text[offset] == first {
            if memcmp(start + offset, bytes, needle.count) == 0 { return offset }
        }
        return nil
    }
}
