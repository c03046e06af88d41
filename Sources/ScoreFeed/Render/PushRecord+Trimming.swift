import Foundation
import ScoreFeedModel

extension PushRecord {
    /// Whether this push and `other` show one state, the size guard aside: their states are
    /// equal, or equal but for a last play that one of them had trimmed from the other's (cut to a
    /// prefix and an ellipsis, or removed). A priority 10 with an alert is trimmed more than its
    /// priority-5 copy, so compared as rendered the two would look like two states; a last play
    /// that really changed still tells them apart.
    func showsSameState(as other: PushRecord) -> Bool {
        if state == other.state { return true }
        var mine = state, theirs = other.state
        mine.lastPlay = nil
        theirs.lastPlay = nil
        return mine == theirs && (lastPlay(trimmedFrom: other) || other.lastPlay(trimmedFrom: self))
    }

    /// Whether this push is `original`'s priority-5 copy (``Push/copyReason``): made with it, so
    /// the same event, moment and state (the size guard aside).
    func isPriority5Copy(of original: PushRecord) -> Bool {
        priority == 5 && reason == Push.copyReason && original.priority == 10 && original.event == event
            && original.sentAt == sentAt && showsSameState(as: original)
    }

    /// Whether this push's last play is `other`'s as the size guard trims it
    /// (``PushRenderer/SizeGuard``).
    private func lastPlay(trimmedFrom other: PushRecord) -> Bool {
        guard trimmed.contains("lastPlay") else { return false }
        guard let cut = state.lastPlay else { return true }
        return (other.state.lastPlay ?? "").hasPrefix(cut.hasSuffix("…") ? String(cut.dropLast()) : cut)
    }
}
