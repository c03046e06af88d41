import Foundation

/// A kill placed at a change to the disk rather than at a moment (``SimulatedDay/Restart/atDiskStep``):
/// from its moment on, the instance's changes to its state directory (or to one game's files) are counted
/// (``CheckpointStore/DiskStep``), and it dies just before the chosen one, inside whatever commit,
/// compaction or delivery makes it: between a journal's lines and the push they let go, between a
/// snapshot's bytes and its rename, between a snapshot and the cut of its journal. A kill at a
/// moment lands between two jobs and rarely finds such a step half done.
///
/// With ``failsTheDevice`` the chosen change is a rename of a game's snapshot (of the one game's,
/// when given), and the device fails there: the rename goes through, every later write and sync
/// fails (``deviceFailed``), and the instance dies at the second change after it (a journal cut
/// that the rename let go, then whatever comes next), or at its wait's end.
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
    /// Whether the chosen step is a rename of a snapshot where the device fails, not a kill.
    public let failsTheDevice: Bool
    /// Changes counted since the device failed (``failsTheDevice``); nil until it fails.
    private var sinceFailure: Int?
    /// The device failed (``failsTheDevice``): every write and sync of the instance fails.
    public var deviceFailed: Bool { sinceFailure != nil }

    /// The longest a kill waits for its step by default: two minutes, a few polls of a live game.
    public static let defaultWithin: TimeInterval = 120

    /// The longest a device that fails at a snapshot's rename waits for it: fifteen minutes, as a
    /// final's snapshot waits for the end and its copy to leave (a slow or failing sender).
    public static let defaultWithinForARename: TimeInterval = 900

    /// `game`: only the changes to this game's files are counted (nil: every change).
    /// `failsTheDevice`: the `step`th rename of a snapshot fails the device (``failsTheDevice``).
    public init(
        from: Date, step: Int, within: TimeInterval = defaultWithin, game: String? = nil, failsTheDevice: Bool = false,
        clock: SimulatedClock, kill: @escaping () -> Void
    ) {
        self.from = from
        self.step = step
        self.within = within
        files = game.map { "game-\(GameID.fileStem($0))." }
        self.failsTheDevice = failsTheDevice
        self.clock = clock
        self.kill = kill
    }

    /// The latest moment it kills: past it, no step is counted.
    public var deadline: Date { from.addingTimeInterval(within) }

    /// Told of a change about to reach the disk at `path`: the chosen one kills the instance first.
    public func diskStep(_ path: String) {
        guard firedAt == nil, !disarmed, clock.now >= from, clock.now <= deadline else { return }
        // (A file's name only when something asks it.)
        let name: Substring = files == nil && !failsTheDevice ? "" : path.split(separator: "/").last ?? ""
        if let files, !name.hasPrefix(files) { return }
        // Until it fails, a device counts snapshots' renames alone: the snapshot's path (its
        // bytes went to a `.tmp`).
        if failsTheDevice, sinceFailure == nil, !(name.hasPrefix("game-") && name.hasSuffix(".json")) { return }
        if let since = sinceFailure {
            // The change the failed rename let go (its journal's cut) is made; the next is not.
            sinceFailure = since + 1
            guard since == 1 else { return }
        } else {
            guard counted == step else {
                counted += 1
                return
            }
            // The chosen rename goes through, the device failing.
            if failsTheDevice {
                sinceFailure = 0
                return
            }
        }
        firedAt = clock.now
        kill()
    }

    /// The instance was killed at a moment instead: what it does as it winds down kills nothing.
    public func disarm() {
        disarmed = true
    }
}
