extension ManagedObject {
    /// The current value of the attribute or to-one relationship `key`; `nil` when the entity
    /// has no such slot or the object holds no values.
    func currentValue(forKey key: String) -> AttributeValue? {
        guard let slot = entity.slot(of: key), slot < currentValues.count else { return nil }
        return currentValues[slot]
    }

    /// Every slot of `entity`, each `null`.
    static func emptySlots(of entity: EntitySchema) -> [AttributeValue] {
        Array(repeating: .null, count: entity.slotNames.count)
    }

    /// Every slot of the object's entity holding `persistent`'s values in its persistent slots
    /// (`null` in the transient ones), which must be held by slot for that entity or by name.
    static func slots(of entity: EntitySchema, from persistent: PropertyValues) -> [AttributeValue] {
        if var slots = persistent.slots(for: entity) {
            if slots.count < entity.slotNames.count {
                slots.append(contentsOf: repeatElement(.null, count: entity.slotNames.count - slots.count))
            }
            return slots
        }
        var slots = emptySlots(of: entity)
        for (key, value) in persistent {
            if let slot = entity.slot(of: key), slot < entity.persistentSlotCount { slots[slot] = value }
        }
        return slots
    }

    /// The persistent attributes and to-one references the object holds now, by slot: what a
    /// save sends its store, derived attributes as the save computed them.
    var persistentValues: PropertyValues {
        let count = entity.persistentSlotCount
        var slots: [AttributeValue]
        if currentValues.count == count {
            slots = currentValues
        } else if currentValues.isEmpty {
            slots = Array(repeating: .null, count: count)
        } else {
            slots = Array(currentValues.prefix(count))
        }
        return PropertyValues(entity: entity, slots: slots)
    }
}
