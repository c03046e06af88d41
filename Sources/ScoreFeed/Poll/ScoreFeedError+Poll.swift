extension ScoreFeedError.Code {
    /// An HTTP answer went past its cap (``BoundedHTTP``'s `maxBody`, counted in decoded bytes)
    /// and was dropped unread.
    public static let bodyTooLarge = ScoreFeedError.Code(rawValue: "body-too-large")
}
