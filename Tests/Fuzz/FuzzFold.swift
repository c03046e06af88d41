// libFuzzer target: decode, then apply (GameFold: validate, fold, follow the feed's score, correct
// edits), coalesce and render every event, as the engine does, with the time taken from the events.
import Foundation

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    guard let document = try? FeedReader.decode(Data(bytes: start, count: count), file: "fuzz") else { return 0 }
    var fold = GameFold()
    var policy = Coalescer()
    var renderer = PushRenderer(attributes: document.attributes)
    var last = fold.state
    func act(_ decision: PushDecision, _ now: Date) {
        guard case .push(let push) = decision else { return }
        let diff = Diff(from: last, to: fold.state)
        _ = renderer.outputs(for: push, state: fold.state, diff: diff, coalesced: 1, sentAt: now, sourceTime: now)
        last = fold.state
    }
    for (index, event) in document.events.enumerated() {
        while let deadline = policy.deadline, deadline <= event.time { act(policy.tick(now: deadline), deadline) }
        if let change = fold.apply(event, index: index, now: event.time).change {
            act(policy.observe(change, now: event.time), event.time)
        }
    }
    act(policy.finish(now: document.events.last?.time ?? Date(timeIntervalSince1970: 0)), Date(timeIntervalSince1970: 0))
    return 0
}
