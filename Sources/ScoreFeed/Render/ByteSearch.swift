import Foundation

/// Looks for a run of ASCII bytes in text by its bytes: Foundation's `contains` and
/// `range(of:)` compare by Unicode rules or copy, which costs more than the work around them.
enum ByteSearch {
    /// Whether `text` holds `needle`'s bytes.
    static func contains(_ text: UnsafeRawBufferPointer, _ needle: UnsafeRawBufferPointer) -> Bool {
        guard let start = text.baseAddress, let first = needle.first, let bytes = needle.baseAddress, text.count >= needle.count
        else { return needle.isEmpty }
        for offset in 0...(text.count - needle.count) where text[offset] == first {
            if memcmp(start + offset, bytes, needle.count) == 0 { return true }
        }
        return false
    }
}
