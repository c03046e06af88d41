// libFuzzer target: decode, then validate, fold, coalesce and render every event, as the
// engine does, with the time taken from the events.
import Foundation

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    guard let document = try? FeedReader.decode(Data(bytes: start, count: count), file: "fuzz") else { return 0 }
    var validator = EventValidator()
    var board = Scoreboard()
    var policy = Coalescer()
    var renderer = PushRenderer(attributes: document.attributes)
    var last = board.state
    func act(_ decision: PushDecision, _ now: Date) {
        guard case .push(let push) = decision else { return }
        let diff = Diff(from: last, to: board.state)
        _ = try? renderer.render(push, state: board.state, diff: diff, coalesced: 1, sentAt: now, sourceTime: now)
        last = board.state
    }
    for (index, event) in document.events.enumerated() where validator.check(event, index: index) == .accept {
        while let deadline = policy.deadline, deadline <= event.time { act(policy.tick(now: deadline), deadline) }
        let diff = board.apply(event)
        act(policy.observe(StateChange(event: event, diff: diff, state: board.state), now: event.time), event.time)
    }
    act(policy.finish(now: document.events.last?.time ?? Date(timeIntervalSince1970: 0)), Date(timeIntervalSince1970: 0))
    return 0
}
