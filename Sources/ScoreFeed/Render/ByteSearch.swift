import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Looks for a run of ASCII bytes in text by its bytes: Foundation's `contains` and
/// `range(of:)` compare by Unicode rules or copy, which costs more than the work around them.
enum ByteSearch {
    /// Whether `text` holds `needle`'s bytes.
    static func contains(_ text: UnsafeRawBufferPointer, _ needle: UnsafeRawBufferPointer) -> Bool {
        firstOffset(of: needle, in: text) != nil || needle.isEmpty
    }

    /// Whether `text` holds `needle`'s bytes: for the ASCII words a feed's text is matched on
    /// (a foul's kind, a push's reason), where Foundation's `contains` costs more than the rest of
    /// mapping an action.
    static func contains(_ text: String, _ needle: String) -> Bool {
        var (text, needle) = (text, needle)
        return text.withUTF8 { text in needle.withUTF8 { contains(UnsafeRawBufferPointer(text), UnsafeRawBufferPointer($0)) } }
    }

    /// Where `needle`'s bytes first start in `text` at or after `from`; nil when they are not
    /// there (or `needle` is empty).
    static func firstOffset(of needle: UnsafeRawBufferPointer, in text: UnsafeRawBufferPointer, from: Int = 0) -> Int? {
        guard let start = text.baseAddress, let bytes = needle.baseAddress, !needle.isEmpty, from >= 0,
              text.count - from >= needle.count
        else { return nil }
        // `memchr` finds candidates by a byte of the needle that JSON's punctuation does not
        // repeat every few bytes (a quote would stop it at every key).
        let anchor = needle.firstIndex { !Self.isCommon($0) } ?? 0
        let byte = Int32(needle[anchor])
        var at = from + anchor
        let last = text.count - needle.count + anchor
        while at <= last {
            guard let found = memchr(start + at, byte, last - at + 1) else { return nil }
            let offset = start.distance(to: UnsafeRawPointer(found)) - anchor
            if memcmp(start + offset, bytes, needle.count) == 0 { return offset }
            at = offset + anchor + 1
        }
        return nil
    }

    /// Where `byte` first comes in `text` at or after `from` (`memchr`); nil when it does not.
    static func firstOffset(of byte: UInt8, in text: UnsafeRawBufferPointer, from: Int = 0) -> Int? {
        guard let start = text.baseAddress, from >= 0, from < text.count, let found = memchr(start + from, Int32(byte), text.count - from)
        else { return nil }
        return start.distance(to: UnsafeRawPointer(found))
    }

    /// Whether `byte` comes every few bytes in JSON text: a quote, a backslash, punctuation or a space.
    private static func isCommon(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: ":"), UInt8(ascii: ","), UInt8(ascii: "{"), UInt8(ascii: "}"),
             UInt8(ascii: "["), UInt8(ascii: "]"), UInt8(ascii: " "): true
        default: false
        }
    }
}
