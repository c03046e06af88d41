import Foundation

/// A kill placed at a change to the disk rather than at a moment (``SimulatedDay/Restart/atDiskStep``):
/// from its moment on, the instance's changes to its state directory (or to one game's files) are counted
/// (``CheckpointStore/DiskStep``), and it dies just before the chosen one, inside whatever commit,
/// compaction or delivery makes it: between a journal's lines and the push they let go, between a
/// snapshot's bytes and its rename, between a snapshot and the cut of its journal. A kill at a
/// moment lands between two jobs and rarely finds such a step half done.
///
/// Counted on the simulation's one thread: ``SimulationExecutor`` runs every job of the day there.
public final class DiskStepKill: @unchecked Sendable {
    /// When counting starts (the restart's moment).
    public let from: Date
    /// The step it dies before, counted from 0 after ``from``.
    public let step: Int
    /// How long after ``from`` it waits for that step: past it, the instance dies at a moment, as
    /// any kill does (a day at rest writes nothing).
    public let within: TimeInterval
    /// The start of the names of the one game's files whose changes are counted
    /// (``SimulatedDay/Restart/writesOfGame``); nil: every change to the directory.
    private let files: String?
    private let clock: SimulatedClock
    /// What the kill does (the instance's sender cut off, its directory handed over as it stands).
    private let kill: () -> Void
    private var counted = 0
    /// When it fired, inside a step; nil until then.
    public private(set) var firedAt: Date?
    /// The instance died otherwise (at its wait's end): no step kills it again.
    private var disarmed = false

    /// The longest a kill waits for its step by default: two minutes, a few polls of a live game.
    public static let defaultWithin: TimeInterval = 120

    /// `game`: only the changes to this game's files are counted (nil: every change).
    public init(
        from: Date, step: Int, within: TimeInterval = defaultWithin, game: String? = nil, clock: SimulatedClock, kill: @escaping () -> Void
    ) {
        self.from = from
        self.step = step
        self.within = within
        files = game.map { "game-\(GameID.fileStem($0))." }
        self.clock = clock
        self.kill = kill
    }

    /// The latest moment it kills: past it, no step is counted.
    public var deadline: Date { from.addingTimeInterval(within) }

    /// Told of a change about to reach the disk at `path`: the chosen one kills the instance first.
    public func diskStep(_ path: String) {
        guard firedAt == nil, !disarmed, clock.now >= from, clock.now <= deadline else { return }
        if let files, !(path.split(separator: "/").last?.hasPrefix(files) ?? false) { return }
        guard counted == step else {
            counted += 1
            return
        }
        firedAt = clock.now
        kill()
    }

    /// The instance was killed at a moment instead: what it does as it winds down kills nothing.
    public func disarm() {
        disarmed = true
    }
}
