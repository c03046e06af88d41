import Foundation

extension Simulation {
    /// What the checkpoints in `directory` would lose at a restart: each game's saved state (its
    /// snapshot, or its journal's base while it has none) read as a restart reads it and written
    /// again must give the same bytes (the encoder sorts its keys, so one state always writes
    /// one text). A field the reading drops (a restart that forgets when the newest copy was
    /// written, the hour's budget, the recent pushes) writes other bytes; the message names the
    /// fields that differ. Checked at every restart of a simulated day, before the instance
    /// restores: one check per game. A checkpoint that cannot be read is another check's.
    static func checkpointsLost(in directory: URL) -> (checked: Int, lost: [String]) {
        var checked = 0
        var lost: [String] = []
        // The games' files as the restore finds them.
        for entry in (try? CheckpointStore(directory: directory).readAll()) ?? [] {
            guard let saved = entry.data ?? Journal.base(of: entry.journal),
                  let session = try? GameSession.decode(saved, file: entry.holder.path), let again = try? session.encoded()
            else { continue }
            checked += 1
            guard again != saved else { continue }
            lost.append("\(entry.holder.lastPathComponent): read at a restart and written again, it differs in \(differingKeys(saved, again))")
        }
        return (checked, lost)
    }

    /// The paths (dotted, from the top) where two JSON texts differ, at most five.
    static func differingKeys(_ a: Data, _ b: Data) -> String {
        var paths: [String] = []
        func walk(_ x: Any?, _ y: Any?, _ path: String) {
            guard paths.count < 5 else { return }
            if let x = x as? [String: Any], let y = y as? [String: Any] {
                for key in Set(x.keys).union(y.keys).sorted() { walk(x[key], y[key], path.isEmpty ? key : path + "." + key) }
            } else if let x = x as? [Any], let y = y as? [Any], x.count == y.count {
                for index in x.indices { walk(x[index], y[index], "\(path)[\(index)]") }
            } else if !((x as? NSObject)?.isEqual(y) ?? (y == nil)) {
                paths.append(path.isEmpty ? "the whole text" : path)
            }
        }
        walk(try? JSONSerialization.jsonObject(with: a), try? JSONSerialization.jsonObject(with: b), "")
        return paths.isEmpty ? "its bytes" : paths.joined(separator: ", ")
    }
}
