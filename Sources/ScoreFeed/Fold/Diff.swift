import Foundation
import ScoreFeedModel

/// Exactly the fields of ``ScoreFeedModel/GameState`` that changed, each old → new, in declaration order.
public struct Diff: Hashable, Sendable, Codable {
    public var changes: [Change]

    public init(_ changes: [Change] = []) {
        self.changes = changes
    }

    /// One changed field.
    public struct Change: Hashable, Sendable, Codable {
        public var field: Field
        public var old: Value
        public var new: Value

        public init(_ field: Field, _ old: Value, _ new: Value) {
            self.field = field
            self.old = old
            self.new = new
        }
    }

    /// The fields of ``ScoreFeedModel/GameState``; raw values are the content-state JSON keys.
    public enum Field: String, Hashable, Sendable, CaseIterable, Codable {
        case homeScore, awayScore, period, phase, clock, possession
        case homeFouls, awayFouls, homeInBonus, awayInBonus, homeTimeouts, awayTimeouts
        case lastPlay, lastScorer
    }

    /// A field's value as it appears in the content-state JSON.
    public enum Value: Hashable, Sendable, Codable {
        case int(Int)
        case bool(Bool)
        case text(String)
        case clock(GameClock)
        case null
    }

    public var isEmpty: Bool { changes.isEmpty }

    /// Whether `field` changed.
    public func contains(_ field: Field) -> Bool {
        containsField { $0 == field }
    }

    /// The change of `field`, if any.
    public subscript(field: Field) -> Change? {
        let place = changes.withUnsafeBufferPointer { changes in changes.indices.first { changes[$0].field == field } }
        return place.map { changes[$0] }
    }

    /// Whether a change is of a field `matches` takes. Read where the changes lie: a change
    /// looked at through the array (`contains(where:)`, a `for` loop) is copied first, its two
    /// values retained and released, and these run for every event and push.
    func containsField(_ matches: (Field) -> Bool) -> Bool {
        changes.withUnsafeBufferPointer { changes in changes.contains { matches($0.field) } }
    }

    /// The fields that differ between two states.
    public init(from old: borrowing GameState, to new: borrowing GameState) {
        // Called for every event and every push: no array unless something changed, and room
        // for a typical event's changes (clock, possession, score, play, scorer, a foul) at once.
        var changes: [Change] = []
        func add(_ field: Field, _ a: Value, _ b: Value) {
            if changes.capacity == 0 { changes.reserveCapacity(6) }
            changes.append(Change(field, a, b))
        }
        if old.homeScore != new.homeScore { add(.homeScore, .int(old.homeScore), .int(new.homeScore)) }
        if old.awayScore != new.awayScore { add(.awayScore, .int(old.awayScore), .int(new.awayScore)) }
        if old.period != new.period { add(.period, .int(old.period), .int(new.period)) }
        if old.phase != new.phase { add(.phase, .text(old.phase.rawValue), .text(new.phase.rawValue)) }
        if old.clock != new.clock { add(.clock, .clock(old.clock), .clock(new.clock)) }
        if old.possession != new.possession { add(.possession, .side(old.possession), .side(new.possession)) }
        if old.homeFouls != new.homeFouls { add(.homeFouls, .int(old.homeFouls), .int(new.homeFouls)) }
        if old.awayFouls != new.awayFouls { add(.awayFouls, .int(old.awayFouls), .int(new.awayFouls)) }
        if old.homeInBonus != new.homeInBonus { add(.homeInBonus, .bool(old.homeInBonus), .bool(new.homeInBonus)) }
        if old.awayInBonus != new.awayInBonus { add(.awayInBonus, .bool(old.awayInBonus), .bool(new.awayInBonus)) }
        if old.homeTimeouts != new.homeTimeouts { add(.homeTimeouts, .int(old.homeTimeouts), .int(new.homeTimeouts)) }
        if old.awayTimeouts != new.awayTimeouts { add(.awayTimeouts, .int(old.awayTimeouts), .int(new.awayTimeouts)) }
        if old.lastPlay != new.lastPlay { add(.lastPlay, .optional(old.lastPlay), .optional(new.lastPlay)) }
        if old.lastScorer != new.lastScorer { add(.lastScorer, .side(old.lastScorer), .side(new.lastScorer)) }
        self.changes = changes
    }

    /// This diff followed by `later`: each field's first old value and last new value;
    /// fields that came back to where they started drop out.
    public func merging(_ later: Diff) -> Diff {
        var merged = changes
        for change in later.changes {
            if let i = merged.firstIndex(where: { $0.field == change.field }) {
                merged[i].new = change.new
            } else {
                merged.append(change)
            }
        }
        merged.removeAll { $0.old == $0.new }
        let order = Dictionary(uniqueKeysWithValues: Field.allCases.enumerated().map { ($1, $0) })
        merged.sort { order[$0.field]! < order[$1.field]! }
        return Diff(merged)
    }
}

extension Diff.Value {
    static func side(_ side: TeamSide?) -> Diff.Value {
        side.map { .text($0.rawValue) } ?? .null
    }

    static func optional(_ text: String?) -> Diff.Value {
        text.map { .text($0) } ?? .null
    }
}
