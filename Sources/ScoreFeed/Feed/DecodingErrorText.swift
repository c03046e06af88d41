import Foundation

/// Turns Foundation's `DecodingError` into a ``ScoreFeedError`` a person can act on.
enum DecodingErrorText {
    /// Decodes `data` as `T`, turning failures into a ``ScoreFeedError`` for `file`.
    static func decode<T: Decodable>(_ type: T.Type, from data: Data, file: String?) throws(ScoreFeedError) -> T {
        do {
            return try JSONDecoder().decode(T.self, from: data)
        } catch let error as DecodingError {
            throw self.error(error, data: data, file: file)
        } catch {
            throw ScoreFeedError(.malformedJSON, "\(error)", at: .init(file: file))
        }
    }

    /// A whole-file error; for malformed JSON it adds the line and column of the offset.
    static func error(_ error: DecodingError, data: Data, file: String?) -> ScoreFeedError {
        if data.isEmpty {
            return ScoreFeedError(.malformedJSON, "the file is empty", at: .init(file: file))
        }
        switch error {
        case .dataCorrupted(let context) where context.codingPath.isEmpty:
            let detail = (context.underlyingError.map { "\($0)" } ?? context.debugDescription)
            return ScoreFeedError(
                .malformedJSON, "not valid JSON (truncated or corrupt?): \(detail)", at: .init(file: file))
        default:
            var result = eventError(error)
            result.location.file = file
            return result
        }
    }

    /// `field "points": expected Int, found a string`.
    static func eventError(_ error: DecodingError) -> ScoreFeedError {
        switch error {
        case .typeMismatch(let type, let context):
            return ScoreFeedError(
                .invalidValue, "\(path(context.codingPath)): expected \(type): \(context.debugDescription)")
        case .valueNotFound(let type, let context):
            return ScoreFeedError(.missingField, "\(path(context.codingPath)): expected \(type), found null")
        case .keyNotFound(let key, let context):
            return ScoreFeedError(
                .missingField, "no \"\(key.stringValue)\" in \(path(context.codingPath, root: "the top level"))")
        case .dataCorrupted(let context):
            return ScoreFeedError(.invalidValue, "\(path(context.codingPath)): \(context.debugDescription)")
        @unknown default:
            return ScoreFeedError(.invalidValue, "\(error)")
        }
    }

    /// `events[3].points`.
    static func path(_ codingPath: [any CodingKey], root: String = "the value") -> String {
        guard !codingPath.isEmpty else { return root }
        var text = ""
        for key in codingPath {
            if let index = key.intValue { text += "[\(index)]" } else { text += (text.isEmpty ? "" : ".") + key.stringValue }
        }
        return "field \"\(text)\""
    }
}
