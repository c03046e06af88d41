import Foundation
import ScoreFeedModel

/// Reading an event with the byte reader (``JSONScanner``), field by field, as its `Decodable`
/// conformance reads it: every field optional, `null` is absent, a wrong type or a repeated
/// field is declined.
extension RawEvent {
    /// An event with no field set.
    init() {}

    /// Reads an event object; other keys are checked and skipped. `depth` is the number of
    /// containers around it.
    static func scan(_ scanner: inout JSONScanner, depth: Int) throws(JSONScanner.Declined) -> RawEvent {
        var raw = RawEvent(), texts = EventTexts()
        var seen: UInt32 = 0
        if try scanner.beginObject() {
            repeat {
                let key = try scanner.key()
                if try !texts.read(key, from: &scanner, into: &raw, seen: &seen, depth: depth + 1) {
                    try scanner.skipValue(depth: depth + 1)
                }
            } while try scanner.nextMember()
        }
        texts.spell(into: &raw, in: scanner)
        return raw
    }
}
