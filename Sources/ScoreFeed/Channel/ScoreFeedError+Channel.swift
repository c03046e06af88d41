extension ScoreFeedError.Code {
    /// A game's broadcast channel could not be had or used (a bad header channel, the cap, APNs
    /// refused the create); the game holds its pushes.
    public static let channel = ScoreFeedError.Code(rawValue: "channel")
}
