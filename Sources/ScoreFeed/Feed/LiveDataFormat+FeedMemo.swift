import Foundation

extension LiveDataFormat {
    /// What ``feed(root:file:boxscore:homeTeamId:memo:)`` made of a poll's last copy, kept so that
    /// a next copy which only adds actions after the last one in feed order (a live game's usual
    /// next copy) maps and settles its new actions alone. The feed is what mapping the whole copy
    /// gives: it is kept only once nothing more actions bring can change how the earlier ones
    /// map (both teams known from their baskets, no sequence number renumbered), and any other
    /// copy is mapped whole.
    struct FeedMemo: Sendable {
        /// What the feed depends on besides the actions: the poller's home team, the game's id,
        /// the boxscore's teams (not their scores) and start, and the file named in errors.
        struct Inputs: Equatable, Sendable {
            var homeTeamId: Int?
            var gameId: String?
            var boxGameId: String?
            var gameTimeUTC: String?
            var home: Root.Team?
            var away: Root.Team?
            var file: String?

            init(homeTeamId: Int?, gameId: String?, box: Root.Game?, file: String?) {
                self.homeTeamId = homeTeamId
                self.gameId = gameId
                boxGameId = box?.gameId
                gameTimeUTC = box?.gameTimeUTC
                home = box?.homeTeam.map { var team = $0; team.score = nil; return team }
                away = box?.awayTeam.map { var team = $0; team.score = nil; return team }
                self.file = file
            }
        }

        let inputs: Inputs
        /// Slots in the copy (actions and rejections).
        private(set) var slotCount: Int
        private(set) var feed: NBAFeed
        /// The mapper after the last action in feed order (the challenger it remembers, the
        /// unknown types it noted).
        private var mapper: Mapper
        /// The last action in feed order.
        private var last: FeedPosition
        private var settling: NBAFeed.Settling
        /// Where times start when no action states one.
        private let start: Double
        /// The times of ``feed``'s actions as last estimated, extended by the next copy's (empty
        /// until the first: the feed's times were estimated whole).
        private var estimate = WallClockEstimate.Estimate()
        /// How many leading actions of ``feed`` the call before made (their times may have moved:
        /// a time is placed between its neighbours' when the feed states none).
        private(set) var kept = 0
        /// Whether the last call moved the time of one of the ``kept`` actions.
        private(set) var moved = false

        init(
            inputs: Inputs, slotCount: Int, feed: NBAFeed, mapper: Mapper, last: NBAFeed.IndexedAction,
            settling: NBAFeed.Settling, start: Double
        ) {
            self.inputs = inputs
            self.slotCount = slotCount
            self.feed = feed
            self.mapper = mapper
            self.last = position(of: last)
            self.settling = settling
            self.start = start
        }

        /// The feed of a copy whose first ``slotCount`` slots are the last copy's (`reused` of
        /// them were taken from it unread) and whose other actions all come after the last one in
        /// feed order, under the same `inputs`; nil when it is not such a copy (it is then mapped
        /// whole, and this memo is spent). `rows` (the memo's rows by slot) gets the new slots'.
        mutating func appending(
            _ slots: [NBAActionSlot], reused: Int, inputs: Inputs, written: Date?, box: Root.Game?, rows: inout [NBAFeed.Row?]
        ) -> NBAFeed? {
            guard inputs == self.inputs, reused == slotCount, slots.count >= slotCount, rows.count == slotCount else { return nil }
            var (actions, rejected) = NBAFeed.split(slots[slotCount...], file: inputs.file)
            sortInFeedOrder(&actions)
            if let first = actions.first, !comesBefore(last, position(of: first)) { return nil }
            let kept = feed.actions.count
            rows.append(contentsOf: repeatElement(nil, count: slots.count - slotCount))
            var added: [NBAFeed.Row] = []
            added.reserveCapacity(actions.count)
            for (index, action) in actions {
                do {
                    var row = try mapper.row(action, index: index)
                    if Mapper.dependsOnActionAlone(row.kind) { rows[index] = row }
                    settling.settle(&row)
                    added.append(row)
                } catch {
                    rejected.append(error)
                }
            }
            if settling.renumbered { return nil }
            if let final = actions.last { last = position(of: final) }

            // Times are estimated over the whole game: a new time can move an earlier one that
            // the feed did not state.
            WallClockEstimate.extend(&estimate, to: settling.clocks, start: start)
            let times = estimate.times
            moved = false
            // The times before the estimate's last known anchor stand as they were.
            for i in min(estimate.kept, kept)..<kept {
                let time = Date(timeIntervalSince1970: times[i])
                if feed.actions[i].event.time != time {
                    feed.actions[i].event.time = time
                    moved = true
                }
            }
            for (offset, row) in added.enumerated() { feed.actions.append(row.action(at: times[kept + offset])) }
            feed.setRejected(feed.rejected + rejected)
            feed.warnings = mapper.unknown.warnings
            feed.actionCount = slots.count
            feed.written = written
            feed.adopt(gameTimeUTC: box?.gameTimeUTC, home: box?.homeTeam, away: box?.awayTeam)
            slotCount = slots.count
            self.kept = kept
            return feed
        }
    }
}
