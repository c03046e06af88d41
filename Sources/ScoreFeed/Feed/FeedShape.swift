import Foundation

/// What a file is, told from its content: the keys of its top-level object, of the objects
/// directly inside, and of the first element of arrays (so `game.actions[].orderNumber`). One
/// fast pass over the bytes, no parsing into values; the chosen decoder parses once.
enum FeedShape: Hashable, Sendable {
    case fixture
    case liveData
    /// A liveData boxscore: teams and totals, no play-by-play.
    case liveDataBoxscore
    /// stats.nba.com `resultSets`: play-by-play or a boxscore summary (the decoder tells).
    case statsResultSets
    case playByPlayV3
    /// Anything else (not an object, or unknown keys): the fixture decoder says what is wrong.
    case unknown

    /// Classifies `data`; never fails (truncated or binary input is left to the decoder).
    static func of(_ data: Data) -> FeedShape {
        // Fixtures written by ScoreFeed start with their format: no need to scan the rest.
        let head = data.prefix(64).drop { $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 || $0 == 0x7B }
        if head.starts(with: Data("\"format\"".utf8)) { return .fixture }
        let paths = keyPaths(data)
        if paths.contains("events") || paths.contains("format") { return .fixture }
        if paths.contains("resultSets") || paths.contains("resultSet") { return .statsResultSets }
        if paths.contains("props.pageProps.playByPlay") || paths.contains("props.pageProps.game") { return .playByPlayV3 }
        if paths.contains("game.actions") {
            if paths.contains("game.actions[].orderNumber") || paths.contains("game.actions[].timeActual") { return .liveData }
            if paths.contains("game.actions[].actionId") { return .playByPlayV3 }
            return .liveData
        }
        if paths.contains("game.homeTeam") || paths.contains("game.awayTeam") { return .liveDataBoxscore }
        return .unknown
    }

    /// Dotted key paths up to four levels deep, arrays as `[]`, looking only into the first
    /// element of each array.
    static func keyPaths(_ data: Data, maxDepth: Int = 4) -> Set<String> {
        var paths = Set<String>()
        data.withUnsafeBytes { (buffer: UnsafeRawBufferPointer) in
            let bytes = buffer.bindMemory(to: UInt8.self)
            var i = 0
            let n = bytes.count
            // Skip a UTF-8 byte-order mark and leading white space; only an object is looked into.
            if n >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { i = 3 }
            while i < n, bytes[i] == 0x20 || bytes[i] == 0x0A || bytes[i] == 0x0D || bytes[i] == 0x09 { i += 1 }
            guard i < n, bytes[i] == UInt8(ascii: "{") else { return }

            struct Frame {
                var isObject: Bool
                var path: String
                /// Inside an array element after the first (or inside such a container).
                var skipped: Bool
                var elements = 0
                var expectingKey = true
            }
            var stack: [Frame] = []
            var pendingKey: String?
            while i < n {
                let byte = bytes[i]
                switch byte {
                case UInt8(ascii: "\""):
                    // A string: a key when the enclosing object expects one.
                    let start = i + 1
                    i += 1
                    while i < n, bytes[i] != UInt8(ascii: "\"") {
                        if bytes[i] == UInt8(ascii: "\\") { i += 1 }
                        i += 1
                    }
                    let last = stack.count - 1
                    if last >= 0, stack[last].isObject, stack[last].expectingKey {
                        stack[last].expectingKey = false
                        if !stack[last].skipped, stack.count <= maxDepth, i <= n {
                            let key = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<min(i, n)]), as: UTF8.self)
                            let path = stack[last].path.isEmpty ? key : stack[last].path + "." + key
                            paths.insert(path)
                            pendingKey = path
                        } else {
                            pendingKey = nil
                        }
                    }
                case UInt8(ascii: "{"), UInt8(ascii: "["):
                    let parent = stack.last
                    var path = ""
                    var skipped = false
                    if stack.count >= maxDepth {
                        skipped = true
                    } else if let parent {
                        if parent.isObject {
                            path = pendingKey ?? parent.path
                            skipped = parent.skipped || pendingKey == nil
                        } else {
                            path = parent.path + "[]"
                            skipped = parent.skipped || parent.elements > 0
                        }
                    }
                    pendingKey = nil
                    stack.append(Frame(isObject: byte == UInt8(ascii: "{"), path: path, skipped: skipped))
                case UInt8(ascii: "}"), UInt8(ascii: "]"):
                    if !stack.isEmpty { stack.removeLast() }
                    if stack.isEmpty { return }
                case UInt8(ascii: ","):
                    let last = stack.count - 1
                    if last >= 0 {
                        if stack[last].isObject { stack[last].expectingKey = true } else { stack[last].elements += 1 }
                    }
                default:
                    break
                }
                i += 1
            }
        }
        return paths
    }
}
