extension ManagedObject {
    /// The value of the attribute `key`, or the ID of the to-one relationship `key`
    /// (``AttributeValue/objectID(_:)``, ``AttributeValue/null`` when empty), loading the
    /// object first if it is a fault.
    ///
    /// - Throws: ``ContextError`` with code ``ContextError/Code/unknownKey`` when the entity
    ///   has no attribute or to-one relationship `key`, or the error firing the fault gave.
    public func value(forKey key: String) throws -> AttributeValue {
        try willAccessValues()
        guard let slot = entity.slot(of: key) else {
            throw unknownKey(key, expected: "attribute or to-one relationship")
        }
        return slot < currentValues.count ? currentValues[slot] : .null
    }

    /// Sets the attribute `key` to `value`, converted to the attribute's type (an `Int` for an
    /// Integer 32 attribute, say), or the to-one relationship `key` to the object with the ID in
    /// `value` (see ``setObject(_:forKey:)``).
    ///
    /// - Throws: ``ContextError`` with code ``ContextError/Code/unknownKey``,
    ///   ``ContextError/Code/wrongType`` when the value cannot be held without loss, or
    ///   ``ContextError/Code/readOnlyProperty`` for a derived attribute.
    public func setValue(_ value: AttributeValue, forKey key: String) throws {
        let property = entity.properties[key]
        if property?.kind == .toOne {
            let target: ManagedObject?
            switch value {
            case .null: target = nil
            case .objectID(let id): target = try liveContext().object(withStored: id)
            default:
                throw ContextError(
                    code: .wrongType,
                    message: "'\(entity.name).\(key)' is a to-one relationship; it needs an object ID, not \(value).")
            }
            try setObject(target, forKey: key)
            return
        }
        guard let property, let type = property.attributeType else {
            throw unknownKey(key, expected: "attribute or to-one relationship")
        }
        guard !entity.derivedSlots.contains(property.slot) else {
            throw ContextError(
                code: .readOnlyProperty,
                message: "'\(entity.name).\(key)' is a derived attribute; its value is computed when the context saves."
            )
        }
        guard let converted = type.coerce(value) else {
            throw ContextError(
                code: .wrongType,
                message: "'\(entity.name).\(key)' is \(type.modelFileName); it cannot hold \(value).")
        }
        try willAccessValues()
        setPrimitiveValue(converted, atSlot: property.slot)
    }

    /// The value at the end of `keyPath`, a dot-separated path of to-one relationships ending
    /// in an attribute, an element of a composite attribute, or a to-one relationship
    /// (`"author.publisher.name"`, `"author.address.city"`); ``AttributeValue/null`` when a
    /// relationship on the way is empty.
    ///
    /// - Throws: ``ContextError`` with code ``ContextError/Code/unknownKey`` naming the
    ///   component that is not a to-one relationship or attribute.
    public func value(forKeyPath keyPath: String) throws -> AttributeValue {
        var components = keyPath.split(separator: ".").map(String.init)[...]
        var object: ManagedObject = self
        while components.count > 1 {
            if let leaf = object.entity.compositeLeaf(startingWith: components), leaf.keyCount == components.count {
                return try object.value(forKey: leaf.name)
            }
            guard let next = try object.object(forKey: components.removeFirst()) else { return .null }
            object = next
        }
        return try object.value(forKey: components.first ?? keyPath)
    }

    /// Records `value` for the attribute or to-one relationship `key` without checks, noting
    /// the change with the context.
    func setPrimitiveValue(_ value: AttributeValue, forKey key: String) {
        guard let slot = entity.slot(of: key) else {
            preconditionFailure("Entity '\(entity.name)' has no attribute or to-one relationship '\(key)'.")
        }
        setPrimitiveValue(value, atSlot: slot)
    }

    /// Records `value` in `slot` without checks, noting the change with the context.
    func setPrimitiveValue(_ value: AttributeValue, atSlot slot: Int) {
        let old = slot < currentValues.count ? currentValues[slot] : nil
        guard old != value || old == nil else { return }
        setCurrentValue(value, atSlot: slot)
        guard let context = managedObjectContext else { return }
        context.undoManager?.recordValue(of: self, key: entity.slotNames[slot], from: old, to: value)
        context.noteChange(of: self)
    }

    /// Checks the thread, applies the delete rules still waiting in the context and fires the
    /// fault before the values are used. A loaded object's values are read without touching its
    /// context (loading a weak reference and releasing it costs more than the read) while no
    /// context waits to apply delete rules, except for the thread check of debug builds.
    func willAccessValues() throws {
        #if DEBUG
            managedObjectContext?.assertOnQueueKeepingDeletes()
        #endif
        guard faulted || DeletesAwaitingRules.anyContextHoldsSome, let context = managedObjectContext else {
            return
        }
        try context.applyAwaitingDeleteRules()
        guard faulted else { return }
        context.coordinator.recordFaultFired(of: self)
        try context.fulfill(self)
    }

    /// The context, which an object must still have to change relationships.
    func liveContext() throws -> ManagedObjectContext {
        guard let context = managedObjectContext else {
            preconditionFailure("\(objectID) no longer belongs to a context (it was deleted and saved, or reset).")
        }
        context.assertOnQueue()
        return context
    }

    func unknownKey(_ key: String, expected: String) -> ContextError {
        ContextError(code: .unknownKey, message: "Entity '\(entity.name)' has no \(expected) '\(key)'.")
    }
}

extension AttributeValue {
    /// The ID in an ``objectID(_:)`` value.
    var objectIDValue: ObjectID? {
        if case .objectID(let id) = self { return id }
        return nil
    }
}
