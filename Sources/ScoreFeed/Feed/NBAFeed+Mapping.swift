import ScoreFeedModel

/// Pieces of mapping one action to a ``NBAFeed/Row`` that the formats' mappers share.
extension NBAFeed {
    /// The sequence number `seq` when there is one and it is below ``syntheticSeqBase``, else the
    /// error. `name` is the field as messages call it; `missing` what to say is missing, when it
    /// differs from `name`.
    static func checkedSeq(
        _ seq: Int?, name: String, missing: String? = nil, location: ScoreFeedError.Location
    ) throws(ScoreFeedError) -> Int {
        guard let seq else { throw ScoreFeedError(.missingField, "no \(missing ?? name)", at: location) }
        guard (0..<syntheticSeqBase).contains(seq) else {
            throw ScoreFeedError(.invalidValue, "\(name) \(seq) is not between 0 and 999999999", at: location)
        }
        return seq
    }

    /// A timeout's kind from its lowercased subtype (liveData and v3 spell them alike): a coach's
    /// challenge, an official one (mandatory, official, TV, media, or no team), else a full one.
    static func timeoutKind(sub: String, team: TeamSide?) -> GameEvent.TimeoutKind {
        if ByteSearch.contains(sub, "challenge") { return .challenge }
        if ["mandatory", "official", "tv", "media"].contains(sub) || team == nil { return .official }
        return .full
    }

    /// A non-scoring event for an action kept but not modelled (stoppages, ejections, unknown
    /// types): `type sub`, or `type` when there is no subtype.
    static func other(type: String, sub: String) -> GameEvent.Kind {
        .other(type: sub.isEmpty ? type : "\(type) \(sub)")
    }
}
