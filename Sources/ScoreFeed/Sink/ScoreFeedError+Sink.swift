extension ScoreFeedError.Code {
    /// A sink could not deliver (connection refused, time-outs, 5xx, 429, …) within its retry
    /// budget; retrying later may work.
    public static let sinkUnavailable = ScoreFeedError.Code(rawValue: "sink-unavailable")
    /// The receiver refused this record for good (a 4xx such as 400 or 422); retrying the same
    /// body cannot work.
    public static let sinkRejected = ScoreFeedError.Code(rawValue: "sink-rejected")
}

extension ScoreFeedError.Code {
    /// The reader of a pipe (standard output) went away: nothing more can be written there.
    public static let readerGone = ScoreFeedError.Code(rawValue: "reader-gone")
}
