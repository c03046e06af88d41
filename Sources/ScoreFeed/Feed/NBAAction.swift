import Foundation

/// One element of an NBA `actions` array as it is on the wire, liveData or v3 (they share most
/// field names). Every field is read leniently (``KeyedDecodingContainer/lenientString(_:)``), so
/// an odd value in a field ScoreFeed does not need never loses the action.
struct NBAAction: Decodable, Sendable, Equatable {
    var actionNumber: Int?
    var actionId: Int?
    var orderNumber: Double?
    var clock: String?
    var timeActual: String?
    var period: Int?
    var teamId: Int?
    var teamTricode: String?
    var personId: Int?
    var actionType: String?
    var subType: String?
    var descriptor: String?
    var playerName: String?
    var playerNameI: String?
    var shotResult: String?
    var shotValue: Int?
    var scoreHome: Int?
    var scoreAway: Int?
    var location: String?
    var description: String?
    var value: String?

    enum CodingKeys: String, CodingKey {
        case actionNumber, actionId, orderNumber, clock, timeActual, period, teamId, teamTricode, personId
        case actionType, subType, descriptor, playerName, playerNameI, shotResult, shotValue
        case scoreHome, scoreAway, location, description, value
    }

    init() {}

    init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        actionNumber = c.lenientInt(.actionNumber)
        actionId = c.lenientInt(.actionId)
        orderNumber = c.lenientDouble(.orderNumber)
        clock = c.lenientString(.clock)
        timeActual = c.lenientString(.timeActual)
        period = c.lenientInt(.period)
        teamId = c.lenientInt(.teamId)
        teamTricode = c.lenientString(.teamTricode)
        personId = c.lenientInt(.personId)
        actionType = c.lenientString(.actionType)
        subType = c.lenientString(.subType)
        descriptor = c.lenientString(.descriptor)
        playerName = c.lenientString(.playerName)
        playerNameI = c.lenientString(.playerNameI)
        shotResult = c.lenientString(.shotResult)
        shotValue = c.lenientInt(.shotValue)
        // Scores are strings in liveData and v3 ("" where none): read as text first, the cheap way.
        scoreHome = c.lenientString(.scoreHome).flatMap(LenientNumber.int)
        scoreAway = c.lenientString(.scoreAway).flatMap(LenientNumber.int)
        location = c.lenientString(.location)
        description = c.lenientString(.description)
        value = c.lenientString(.value)
    }

    /// `playerNameI` when it is not empty.
    var player: String? {
        playerNameI.flatMap { $0.isEmpty ? nil : $0 }
    }

    /// The feed's score after this action, when it states a plausible one.
    var feedScore: FinalScore? {
        NBAFeed.score(home: scoreHome, away: scoreAway)
    }
}

/// One element of an `actions` array: the action, or why it could not be read (it is not an
/// object), without failing the enclosing array.
struct NBAActionSlot: Decodable, Sendable, Equatable {
    var action: NBAAction?

    init(action: NBAAction?) {
        self.action = action
    }

    init(from decoder: any Decoder) throws {
        action = try? NBAAction(from: decoder)
    }
}
