extension String {
    /// Calls `body` with the string's UTF-8 bytes where a native string keeps them, with no copy
    /// of the value (`withUTF8` mutates, so on a `let` it needs one); a string without contiguous
    /// UTF-8 (bridged) is copied first. The JSON writers, digests and hashes read every text of
    /// the live path through it.
    @inline(__always)
    func readingUTF8<R>(_ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        if let result = try utf8.withContiguousStorageIfAvailable(body) { return result }
        var copy = self
        return try copy.withUTF8(body)
    }
}
