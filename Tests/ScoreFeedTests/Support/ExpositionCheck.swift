import Foundation
import Testing

/// The rules of the Prometheus text exposition format 0.0.4 that `--metrics` must keep, checked
/// on the text itself (``problems(_:)``), and `promtool check metrics` where it is installed.
enum ExpositionCheck {
    /// One sample: its metric name, labels in order, and value.
    struct Sample {
        var name: String
        var labels: [(String, String)]
        var value: Double
    }

    /// Every rule the text breaks, empty when it keeps them all: each sample's family has HELP and
    /// TYPE lines before it; names and label names are valid; label values are escaped (only
    /// `\\`, `\"`, `\n`); no series twice; each histogram's buckets are cumulative and end in
    /// `+Inf` equal to its `_count`, with a `_sum`.
    static func problems(_ text: String) -> [String] {
        var problems: [String] = []
        var help: Set<String> = [], types: [String: String] = [:]
        var seen: Set<String> = []
        var samples: [Sample] = []
        for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() where !line.isEmpty {
            let where_ = "line \(number + 1)"
            if line.hasPrefix("# HELP ") || line.hasPrefix("# TYPE ") {
                let parts = line.dropFirst(7).split(separator: " ", maxSplits: 1).map(String.init)
                guard let name = parts.first, isName(name) else { problems.append("\(where_): bad name in \(line)"); continue }
                if line.hasPrefix("# HELP ") {
                    if !help.insert(name).inserted { problems.append("\(where_): second HELP of \(name)") }
                } else {
                    if types[name] != nil { problems.append("\(where_): second TYPE of \(name)") }
                    let type = parts.count > 1 ? parts[1] : ""
                    if !["counter", "gauge", "histogram", "summary", "untyped"].contains(type) { problems.append("\(where_): type \(type)") }
                    types[name] = type
                }
                continue
            }
            if line.hasPrefix("#") { continue }
            guard let sample = parse(String(line)) else { problems.append("\(where_): cannot read \(line)"); continue }
            let family = self.family(of: sample.name, types: types)
            if !help.contains(family) || types[family] == nil { problems.append("\(where_): \(sample.name) without HELP and TYPE before it") }
            let key = sample.name + "{" + sample.labels.map { "\($0.0)=\($0.1)" }.sorted().joined(separator: ",") + "}"
            if !seen.insert(key).inserted { problems.append("\(where_): series \(key) twice") }
            if Set(sample.labels.map(\.0)).count != sample.labels.count { problems.append("\(where_): a label twice") }
            samples.append(sample)
        }
        for (family, type) in types where type == "histogram" { problems += histogramProblems(family, samples) }
        return problems
    }

    /// The family a sample belongs to: a histogram's `_bucket`, `_sum` and `_count` are its own.
    static func family(of name: String, types: [String: String]) -> String {
        for suffix in ["_bucket", "_sum", "_count"] where name.hasSuffix(suffix) {
            let base = String(name.dropLast(suffix.count))
            if types[base] == "histogram" { return base }
        }
        return name
    }

    static func histogramProblems(_ family: String, _ samples: [Sample]) -> [String] {
        var problems: [String] = []
        let buckets = samples.filter { $0.name == family + "_bucket" }
        var previous = -1.0, previousBound = -Double.infinity
        for bucket in buckets {
            guard let le = bucket.labels.first(where: { $0.0 == "le" })?.1, let bound = le == "+Inf" ? Double.infinity : Double(le) else {
                problems.append("\(family): a bucket without a number in le")
                continue
            }
            if bound <= previousBound { problems.append("\(family): bounds not rising at le=\(le)") }
            if bucket.value < previous { problems.append("\(family): buckets not cumulative at le=\(le)") }
            previous = bucket.value
            previousBound = bound
        }
        if buckets.last?.labels.first(where: { $0.0 == "le" })?.1 != "+Inf" { problems.append("\(family): no +Inf bucket last") }
        let count = samples.first { $0.name == family + "_count" }?.value
        if count == nil { problems.append("\(family): no _count") }
        if samples.first(where: { $0.name == family + "_sum" }) == nil { problems.append("\(family): no _sum") }
        if let count, let last = buckets.last?.value, last != count { problems.append("\(family): +Inf bucket \(last) is not _count \(count)") }
        return problems
    }

    /// `[a-zA-Z_:][a-zA-Z0-9_:]*`.
    static func isName(_ name: String) -> Bool {
        let bytes = Array(name.utf8)
        func allowed(_ b: UInt8, first: Bool) -> Bool {
            (b >= 65 && b <= 90) || (b >= 97 && b <= 122) || b == 95 || b == 58 || (!first && b >= 48 && b <= 57)
        }
        guard let head = bytes.first, allowed(head, first: true) else { return false }
        return bytes.dropFirst().allSatisfy { allowed($0, first: false) }
    }

    static func isLabelName(_ name: String) -> Bool { isName(name) && !name.contains(":") }

    /// `name{label="value",…} value`, with the value's escapes undone; nil when it is not that.
    static func parse(_ line: String) -> Sample? {
        var rest = Substring(line)
        let name = String(rest.prefix { $0 != "{" && $0 != " " })
        guard isName(name) else { return nil }
        rest = rest.dropFirst(name.count)
        var labels: [(String, String)] = []
        if rest.first == "{" {
            rest = rest.dropFirst()
            while rest.first != "}" {
                let label = String(rest.prefix { $0 != "=" })
                guard isLabelName(label) else { return nil }
                rest = rest.dropFirst(label.count)
                guard rest.hasPrefix("=\"") else { return nil }
                rest = rest.dropFirst(2)
                var value = ""
                while let c = rest.first, c != "\"" {
                    rest = rest.dropFirst()
                    if c == "\\" {
                        guard let next = rest.first else { return nil }
                        rest = rest.dropFirst()
                        switch next {
                        case "\\": value += "\\"
                        case "\"": value += "\""
                        case "n": value += "\n"
                        default: return nil
                        }
                    } else if c == "\n" {
                        return nil
                    } else {
                        value.append(c)
                    }
                }
                guard rest.first == "\"" else { return nil }
                rest = rest.dropFirst()
                labels.append((label, value))
                if rest.first == "," { rest = rest.dropFirst() } else if rest.first != "}" { return nil }
            }
            rest = rest.dropFirst()
        }
        guard rest.first == " " else { return nil }
        let valueText = rest.dropFirst()
        let value = valueText == "+Inf" ? Double.infinity : valueText == "-Inf" ? -Double.infinity : Double(valueText)
        guard let value else { return nil }
        return Sample(name: name, labels: labels, value: value)
    }

    /// Every sample of the text (comments skipped).
    static func samples(_ text: String) -> [Sample] {
        text.split(separator: "\n").filter { !$0.hasPrefix("#") }.compactMap { parse(String($0)) }
    }

    /// The sum of the samples named `name` whose labels include `matching`.
    static func sum(_ text: String, _ name: String, _ matching: [String: String] = [:]) -> Double {
        samples(text).filter { sample in
            sample.name == name && matching.allSatisfy { key, value in sample.labels.contains { $0 == (key, value) } }
        }.reduce(0) { $0 + $1.value }
    }

    /// `promtool`, when it is on the PATH.
    static let promtool = ToolRun.onPath("promtool")

    static let promtoolAbsent: Comment = "promtool is not on the PATH (Debian: apt-get install prometheus); the Swift checks of the format ran regardless"

    /// `promtool check metrics < file`: its exit status and what it said.
    static func promtoolCheck(_ text: String) throws -> (status: Int32, output: String) {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("scorefeed-\(UUID().uuidString).prom")
        try Data(text.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let process = Process()
        process.executableURL = promtool
        process.arguments = ["check", "metrics"]
        process.standardInput = try FileHandle(forReadingFrom: file)
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let said = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: said, as: UTF8.self))
    }
}
