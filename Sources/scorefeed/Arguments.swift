import Foundation
import ScoreFeed

/// Hand-rolled argument scanning (no packages): flags, options with a value, positionals.
///
/// Everything after a lone `--` is a positional. An option's value is the argument right after
/// it on the command line, and never an option: in `--out --quiet x.json`, `--out` has no value
/// (a usage error) whichever of the two is taken out first. A value that starts with `-` is
/// written `--out=-x`; `-` alone (standard input or output) and negative numbers are values.
struct Arguments {
    /// The arguments not taken yet, with their place on the command line.
    private var remaining: [(position: Int, text: String)]

    /// Every option and flag name the command has looked for, given or not: what it accepts,
    /// which a test holds against the options its help lists.
    private(set) var asked: Set<String> = []

    init(_ arguments: [String]) {
        remaining = arguments.enumerated().map { (position: $0.offset, text: $0.element) }
    }

    /// How many of `remaining` are options and values: everything before a lone `--`.
    private var optionCount: Int {
        remaining.firstIndex { $0.text == "--" } ?? remaining.count
    }

    /// Removes `--name` (or any alias) and says whether it was there.
    mutating func flag(_ names: String...) -> Bool {
        asked.formUnion(names)
        var found = false
        var i = 0
        while i < optionCount {
            if names.contains(remaining[i].text) {
                found = true
                remaining.remove(at: i)
            } else {
                i += 1
            }
        }
        return found
    }

    /// Removes `--name VALUE` or `--name=VALUE` and returns the value (the last one wins).
    mutating func option(_ names: String...) throws(ScoreFeedError) -> String? {
        asked.formUnion(names)
        var value: String?
        var i = 0
        while i < optionCount {
            let arg = remaining[i]
            if let name = names.first(where: { arg.text.hasPrefix($0 + "=") }) {
                value = String(arg.text.dropFirst(name.count + 1))
                remaining.remove(at: i)
            } else if names.contains(arg.text) {
                // The value must be the very next argument: not one behind a flag taken out
                // already, not an option, not the `--` that ends the options.
                guard i + 1 < optionCount, remaining[i + 1].position == arg.position + 1,
                      !Self.looksLikeOption(remaining[i + 1].text)
                else {
                    throw ScoreFeedError(.usage, "\(arg.text) needs a value")
                }
                value = remaining[i + 1].text
                remaining.removeSubrange(i...(i + 1))
            } else {
                i += 1
            }
        }
        return value
    }

    /// Whether `text` is an option rather than a value: `--anything`, or `-` and a letter (`-q`).
    /// `-` alone and negative numbers (`-5`, `-0.5`, `-.5`) are values.
    static func looksLikeOption(_ text: String) -> Bool {
        if text.hasPrefix("--") { return true }
        guard text.hasPrefix("-"), let second = text.dropFirst().first else { return false }
        return !(second.isNumber || second == ".")
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

    /// An option that takes one of a fixed set of values, the raw values of `Value`'s cases; any
    /// other value is a usage error that names them all.
    mutating func choice<Value: CaseIterable & RawRepresentable>(
        _ name: String, of type: Value.Type
    ) throws(ScoreFeedError) -> Value? where Value.RawValue == String {
        try choice(name, among: Array(Value.allCases))
    }

    /// An option that takes one of `values` (by raw value), for enums that are not `CaseIterable`.
    mutating func choice<Value: RawRepresentable>(
        _ name: String, among values: [Value]
    ) throws(ScoreFeedError) -> Value? where Value.RawValue == String {
        guard let text = try option(name) else { return nil }
        guard let value = values.first(where: { $0.rawValue == text }) else {
            throw ScoreFeedError(.usage, "\(name) takes \(Self.alternatives(values.map(\.rawValue))), not \"\(text)\"")
        }
        return value
    }

    /// `a`, `a or b`, `a, b or c`.
    static func alternatives(_ words: [String]) -> String {
        guard words.count > 1 else { return words.first ?? "" }
        return words.dropLast().joined(separator: ", ") + " or " + words[words.count - 1]
    }

    /// Refuses `name`, in any spelling, with `message`: an option this command does not take but
    /// people may try, said plainly instead of "unknown option". It is not among ``asked``: the
    /// help does not list it.
    mutating func refuse(_ name: String, _ message: @autoclosure () -> String) throws(ScoreFeedError) {
        if remaining.prefix(optionCount).contains(where: { $0.text == name || $0.text.hasPrefix(name + "=") }) {
            throw ScoreFeedError(.usage, message())
        }
    }

    /// What is left once options are taken: positionals. Fails on leftover `--options`.
    mutating func positionals(max: Int) throws(ScoreFeedError) -> [String] {
        let options = remaining.prefix(optionCount).map(\.text)
        if let unknown = options.first(where: { $0.hasPrefix("-") && $0 != "-" }) {
            throw ScoreFeedError(.usage, "unknown option \(unknown)")
        }
        var rest = remaining.map(\.text)
        if optionCount < rest.count { rest.remove(at: optionCount) }
        guard rest.count <= max else {
            throw ScoreFeedError(.usage, "unexpected argument \(rest[max])")
        }
        remaining = []
        return rest
    }
}
