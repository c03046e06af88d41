import Foundation
import ScoreFeedModel

/// Everything the HTML report draws, computed from one replay: the true score over time, each
/// push, what the device showed when (under the freshness report's device model: Apple's, or
/// ``AndroidDeviceModel`` for Android's messages), the budget use and the freshness figures.
/// Pure data; encoded as JSON into the page.
public struct ReportData: Codable, Sendable {
    /// The lock screen the pushes are for.
    public var platform: PushRenderer.Platform
    public var attributes: GameAttributes
    /// Window of the game, Unix seconds.
    public var start: Double
    public var end: Double
    /// When the modelled lock screen shows its last push (Unix seconds): after ``end`` when that
    /// push is a priority 5, or a priority 10 beyond the budget carried by its priority-5 copy.
    /// The page's slider runs until then, so scrubbed to the end it shows what the game ends on.
    public var settled: Double
    /// Feed times at which each period started (index 0 = period 1).
    public var periodStarts: [PeriodMark]
    /// The true state after each event that changed the score or the period, in time order.
    public var truth: [TruthPoint]
    public var pushes: [PushPoint]
    /// What the device showed, from each moment on.
    public var screen: [ScreenPoint]
    /// Where the modelled lock screen showed a wrong score: (start, end) in Unix seconds.
    public var wrongSpans: [[Double]]
    /// iOS: the engine beside the iOS baselines under Apple's device model.
    public var freshness: FreshnessReport?
    /// Android: the engine beside the Android senders under ``AndroidDeviceModel``.
    public var androidFreshness: AndroidFreshnessReport?
    /// iOS: the priority-10 budget per rolling hour (Android: none, 0).
    public var budget: Int
    /// How late a priority-5 push is shown (Android: a `NORMAL` message, Doze's delay).
    public var priority5Delay: Double

    /// The engine's figures, on either platform.
    public var engine: Freshness {
        freshness?.engine ?? androidFreshness?.engine ?? Freshness(policy: "engine", wrongShare: 1, priority10: 0)
    }

    public struct PeriodMark: Codable, Sendable {
        public var period: Int
        public var time: Double
        public var label: String
    }

    public struct TruthPoint: Codable, Sendable {
        public var time: Double
        public var home: Int
        public var away: Int
        public var period: Int
    }

    public struct PushPoint: Codable, Sendable {
        public var seq: Int
        public var time: Double
        public var priority: Int
        public var event: String
        public var alert: String?
        public var home: Int
        public var away: Int
        public var reason: String
        /// Priority-10 pushes sent in the hour up to this push (for the budget chart).
        public var rollingPriority10: Int
    }

    public struct ScreenPoint: Codable, Sendable {
        public var time: Double
        public var seq: Int
        public var state: GameState
    }

    /// The report of `document` replayed into `records` (in send order, as ``Replay`` gives
    /// them), under `model`.
    public init(document: FeedDocument, records: [PushRecord], model: DeviceModel) {
        let timeline = ScoreTimeline(events: document.events)
        self.init(
            document: document, records: records, timeline: timeline, screen: model.screen(records.map(DeviceModel.Sent.init)),
            window: model.window)
        budget = model.budget
        priority5Delay = model.priority5Delay
        freshness = FreshnessReport(game: document.attributes.gameId, records: records, timeline: timeline, model: model)
    }

    /// The report of `document` replayed into Android `records` (FCM messages), under `model`.
    public init(document: FeedDocument, records: [PushRecord], android model: AndroidDeviceModel) {
        let timeline = ScoreTimeline(events: document.events)
        self.init(document: document, records: records, timeline: timeline, screen: model.screen(records.map(DeviceModel.Sent.init)), window: DeviceModel.hour)
        platform = .android
        priority5Delay = model.normalDelay
        androidFreshness = AndroidFreshnessReport(game: document.attributes.gameId, records: records, timeline: timeline, model: model)
    }

    /// What both platforms' reports draw alike, from what the device model showed (`screen`);
    /// `window`: the rolling hour of the budget chart.
    private init(
        document: FeedDocument, records: [PushRecord], timeline: ScoreTimeline, screen deviceScreen: [DeviceModel.Shown], window: TimeInterval
    ) {
        platform = .ios
        attributes = document.attributes
        budget = 0
        priority5Delay = 0
        start = timeline.start.timeIntervalSince1970
        end = max(timeline.end.timeIntervalSince1970, records.last?.sentAt.timeIntervalSince1970 ?? 0)

        var truth: [TruthPoint] = [TruthPoint(time: start, home: 0, away: 0, period: 1)]
        var periods: [PeriodMark] = []
        var last = start
        // The same rules as the engine's: what the report calls the truth is what it was sent.
        GameFold.replay(document.events) { _, change in
            let time = max(last, change.event.time.timeIntervalSince1970)
            last = time
            let before = change.before, state = change.state
            if state.period != before.period || periods.isEmpty, state.phase == .live {
                if periods.last?.period != state.period {
                    periods.append(PeriodMark(period: state.period, time: time, label: state.periodLabel))
                }
            }
            if state.homeScore != before.homeScore || state.awayScore != before.awayScore || state.period != before.period {
                truth.append(TruthPoint(time: time, home: state.homeScore, away: state.awayScore, period: state.period))
            }
        }
        self.truth = truth
        periodStarts = periods

        // Send times of the priority-10 pushes so far; those before `firstInWindow` have left the
        // rolling hour. Send times never go back (replay's clock does not), so it only moves on.
        var tens: [Double] = []
        var firstInWindow = 0
        pushes = records.map { record in
            let time = record.sentAt.timeIntervalSince1970
            if record.priority == 10 { tens.append(time) }
            while tens.count > firstInWindow && tens[firstInWindow] <= time - window { firstInWindow += 1 }
            let alert = Self.alertTitle(record)
            return PushPoint(
                seq: record.seq, time: time, priority: record.priority, event: record.event.rawValue, alert: alert,
                home: record.state.homeScore, away: record.state.awayScore, reason: record.reason,
                rollingPriority10: tens.count - firstInWindow)
        }
        let byTimestamp = Dictionary(records.map { ($0.timestamp, $0) }, uniquingKeysWith: { a, _ in a })
        settled = max(end, deviceScreen.map(\.time.timeIntervalSince1970).max() ?? end)
        wrongSpans = Freshness.wrongSpans(screen: deviceScreen, timeline: timeline).map {
            [$0.start.timeIntervalSince1970, $0.end.timeIntervalSince1970]
        }
        screen = deviceScreen.compactMap { shown in
            byTimestamp[shown.push.timestamp].map {
                ScreenPoint(time: shown.time.timeIntervalSince1970, seq: $0.seq, state: $0.state)
            }
        }
    }

    /// The alert's title in a record's payload: APNs' `aps.alert.title`, or an Android message's
    /// `data.alert` (a JSON string with a `title`).
    static func alertTitle(_ record: PushRecord) -> String? {
        guard let payload = try? JSONSerialization.jsonObject(with: record.payload) as? [String: Any] else { return nil }
        if record.platform == .android {
            let data = (payload["message"] as? [String: Any])?["data"] as? [String: String]
            let alert = data?["alert"].flatMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
            return alert?["title"] as? String
        }
        return ((payload["aps"] as? [String: Any])?["alert"] as? [String: Any])?["title"] as? String
    }
}
