#if canImport(ActivityKit)
import ActivityKit

/// On iOS the attributes are the Live Activity's type; `ContentState` is decoded from each push.
extension GameAttributes: ActivityAttributes {}
#endif
