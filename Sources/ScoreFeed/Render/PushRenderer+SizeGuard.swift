import Foundation
import ScoreFeedModel

extension PushRenderer {
    /// Fits a payload into APNs' limit: text is trimmed on `Character` boundaries (so an emoji,
    /// a flag or a letter with its accents is never cut apart), least important first, and what
    /// was trimmed is named. Pure: it only encodes and measures.
    ///
    /// What must fit is the largest of the payload's ``PayloadSerialization``s, not only the
    /// compact bytes ScoreFeed writes: a sender that re-serializes the payload object (Python's
    /// `json.dumps`, `aioapns`, Foundation's `JSONEncoder`) sends more bytes than the record holds,
    /// and APNs measures what it receives. The record keeps the compact bytes.
    ///
    /// Order: the content-state's `lastPlay` (down to nothing), the alert's body (down to empty),
    /// the alert's title (down to one character and an ellipsis: an alert without a title is
    /// ignored), then, on a push-to-start, the attributes' league, cities and team names. Scores,
    /// period, clock and identifiers are never touched; if the payload still does not fit it is
    /// refused.
    struct SizeGuard {
        let limit: Int

        enum Outcome {
            /// The payload, the (possibly trimmed) `aps` it encodes, and the trimmed fields.
            case fits(Data, APNsPayload.APS, trimmed: [String])
            /// Even fully trimmed, the payload has this many bytes in `serialization`, its largest.
            case tooLarge(bytes: Int, serialization: PayloadSerialization, trimmed: [String])
        }

        /// One trimmable text field of a message (`Message`: an APNs payload's `aps`, or an
        /// Android data message).
        struct TextField<Message>: Sendable {
            var name: String
            var get: @Sendable (Message) -> String?
            var set: @Sendable (inout Message, String?) -> Void
            /// Characters that must remain (the alert title keeps one).
            var keep: Int = 0
            /// Whether the field may be removed (`nil`) rather than left empty.
            var removable = false
        }

        /// The trimmable fields, least important first.
        static let fields: [TextField<APNsPayload.APS>] = [
            TextField(
                name: "lastPlay", get: { $0.contentState.lastPlay }, set: { $0.contentState.lastPlay = $1 },
                removable: true),
            TextField(name: "alert.body", get: { $0.alert?.body }, set: { $0.alert?.body = $1 ?? "" }),
            TextField(name: "alert.title", get: { $0.alert?.title }, set: { $0.alert?.title = $1 ?? "" }, keep: 1),
            TextField(name: "attributes.league", get: { $0.attributes?.league }, set: { $0.attributes?.league = $1 ?? "" }),
            TextField(name: "attributes.away.city", get: { $0.attributes?.away.city }, set: { $0.attributes?.away.city = $1 ?? "" }),
            TextField(name: "attributes.home.city", get: { $0.attributes?.home.city }, set: { $0.attributes?.home.city = $1 ?? "" }),
            TextField(name: "attributes.away.name", get: { $0.attributes?.away.name }, set: { $0.attributes?.away.name = $1 ?? "" }),
            TextField(name: "attributes.home.name", get: { $0.attributes?.home.name }, set: { $0.attributes?.home.name = $1 ?? "" }),
        ]

        func fit(_ original: APNsPayload.APS) throws(ScoreFeedError) -> Outcome {
            let payload = try PushRenderer.encode(original)
            // Most payloads are far below the limit in every serialization: none is measured.
            if payload.count <= limit / PayloadSerialization.largestGrowth { return .fits(payload, original, trimmed: []) }
            func measure(_ aps: APNsPayload.APS) throws(ScoreFeedError) -> Int {
                try PayloadSerialization.sizes(of: PushRenderer.encode(aps)).largest.bytes
            }
            let (aps, bytes, trimmed) = try trim(original, bytes: try measure(original), fields: Self.fields, measure: measure)
            let fitted = try PushRenderer.encode(aps)
            guard bytes <= limit else {
                let size = try PayloadSerialization.sizes(of: fitted).largest
                return .tooLarge(bytes: size.bytes, serialization: size.serialization, trimmed: trimmed)
            }
            return .fits(fitted, aps, trimmed: trimmed)
        }

        /// `message` with its `fields` trimmed, least important first, until `measure` finds it
        /// within the limit (or every field is at its shortest): the message, its size, and the
        /// fields trimmed. `bytes` is the untrimmed message's size.
        func trim<Message>(
            _ message: Message, bytes: Int, fields: [TextField<Message>], measure: (Message) throws(ScoreFeedError) -> Int
        ) throws(ScoreFeedError) -> (Message, bytes: Int, trimmed: [String]) {
            var message = message
            var size = bytes
            var trimmed: [String] = []
            for field in fields where size > limit {
                guard let text = field.get(message), text.count > field.keep else { continue }
                let characters = Array(text)
                // Where each character starts (and the text's end): a prefix is then one slice.
                let starts = Array(text.indices) + [text.endIndex]
                func candidate(_ kept: Int) -> String? {
                    if kept == 0 { return field.removable ? nil : "" }
                    return Self.shortened(text, characters: characters, starts: starts, to: kept)
                }
                trimmed.append(field.name)
                // The shortest this field may get; if even that is too big, go on to the next field.
                field.set(&message, candidate(field.keep))
                size = try measure(message)
                guard size <= limit else { continue }
                // Binary search the longest prefix that fits: every measure grows with each
                // character kept, and each character is at least one byte, so no more than
                // `limit` characters can.
                var low = field.keep, high = min(characters.count - 1, limit)
                while low < high {
                    let middle = (low + high + 1) / 2
                    var attempt = message
                    field.set(&attempt, candidate(middle))
                    let measured = try measure(attempt)
                    if measured <= limit {
                        low = middle
                        message = attempt
                        size = measured
                    } else {
                        high = middle - 1
                    }
                }
            }
            return (message, size, trimmed)
        }

        /// The first `kept` of `text`'s `characters`, without trailing white space, and an
        /// ellipsis (`starts`: where each character starts in `text`, then its end).
        static func shortened(_ text: String, characters: [Character], starts: [String.Index], to kept: Int) -> String {
            var count = min(kept, characters.count)
            while count > 1, characters[count - 1].isWhitespace { count -= 1 }
            return String(text[..<starts[count]]) + "…"
        }
    }
}
