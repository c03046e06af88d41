import Foundation
import ScoreFeed

/// Hand-rolled argument scanning (no packages): flags, options with a value, positionals.
struct Arguments {
    private var remaining: [String]

    init(_ arguments: [String]) {
        remaining = arguments
    }

    /// Removes `--name` (or any alias) and says whether it was there.
    mutating func flag(_ names: String...) -> Bool {
        var found = false
        remaining.removeAll { arg in
            if names.contains(arg) { found = true; return true }
            return false
        }
        return found
    }

    /// Removes `--name VALUE` or `--name=VALUE` and returns the value (the last one wins).
    mutating func option(_ names: String...) throws(ScoreFeedError) -> String? {
        var value: String?
        var i = 0
        while i < remaining.count {
            let arg = remaining[i]
            if let name = names.first(where: { arg.hasPrefix($0 + "=") }) {
                value = String(arg.dropFirst(name.count + 1))
                remaining.remove(at: i)
            } else if names.contains(arg) {
                guard i + 1 < remaining.count else {
                    throw ScoreFeedError(.usage, "\(arg) needs a value")
                }
                value = remaining[i + 1]
                remaining.removeSubrange(i...(i + 1))
            } else {
                i += 1
            }
        }
        return value
    }

    /// An option parsed as a number within `range`.
    mutating func number<T: LosslessStringConvertible & Comparable>(
        _ name: String, in range: ClosedRange<T>
    ) throws(ScoreFeedError) -> T? {
        guard let text = try option(name) else { return nil }
        guard let value = T(text), range.contains(value) else {
            throw ScoreFeedError(.usage, "\(name) must be a number in \(range.lowerBound)…\(range.upperBound), not \"\(text)\"")
        }
        return value
    }

    /// What is left once options are taken: positionals. Fails on leftover `--options`.
    mutating func positionals(max: Int) throws(ScoreFeedError) -> [String] {
        var rest = remaining
        if let dashdash = rest.firstIndex(of: "--") { rest.remove(at: dashdash) }
        if let unknown = remaining.prefix(while: { $0 != "--" }).first(where: { $0.hasPrefix("-") && $0 != "-" }) {
            throw ScoreFeedError(.usage, "unknown option \(unknown)")
        }
        guard rest.count <= max else {
            throw ScoreFeedError(.usage, "unexpected argument \(rest[max])")
        }
        remaining = []
        return rest
    }
}
