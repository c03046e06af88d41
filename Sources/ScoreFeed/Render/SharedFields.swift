/// A value's fields in one box its copies share until one of them changes (copy on write): a
/// value copied at every step of the live path (``PushRecord``, ``StateChange``) then costs one
/// reference count per copy, not one per string, array and buffer in its fields.
final class SharedFields<Fields: Sendable>: @unchecked Sendable {
    /// Changed only through ``own(_:)``, while no other value shares the box.
    var fields: Fields

    init(_ fields: Fields) {
        self.fields = fields
    }

    /// `box`, made its holder's own first when another value shares it: the one way to change
    /// the fields.
    static func own(_ box: inout SharedFields) -> SharedFields {
        if !isKnownUniquelyReferenced(&box) { box = SharedFields(box.fields) }
        return box
    }
}
