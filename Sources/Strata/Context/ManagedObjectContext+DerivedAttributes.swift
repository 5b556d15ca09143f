extension ManagedObjectContext {
    /// Works out the derived attributes of every object the save writes or whose derivation
    /// reads something the save changes, as Core Data's stores do when they save.
    ///
    /// An object is recomputed when it is inserted or updated, and when an object its
    /// derivation reads through a relationship with an inverse (a page of `pages.@count`, the
    /// author of `author.name`) is inserted, updated or deleted. Values that do not change are
    /// left alone, so recomputing marks nothing as updated. A child context leaves the work to
    /// the save that reaches a store. `now()` is one date for the whole save.
    ///
    /// - Throws: ``ContextError`` with code ``ContextError/Code/validation`` naming the object and
    ///   attribute when a derivation cannot be evaluated or its value does not fit the
    ///   attribute's type.
    func updateDerivedAttributes() throws {
        guard parent == nil, schema.hasDerivations else { return }
        let evaluation = FetchEvaluation()
        var seen = Set<ObjectIdentifier>()
        var targets: [ManagedObject] = []
        func consider(_ object: ManagedObject) {
            guard !object.entity.derivations.isEmpty, !object.isDeleted,
                seen.insert(ObjectIdentifier(object)).inserted
            else { return }
            targets.append(object)
        }
        let changed = pendingInserts.elements + pendingChanges.elements + pendingDeletions.elements
        for object in changed {
            consider(object)
            for relationship in schema.derivationSources(of: object.entity) {
                for owner in try related(object, through: relationship) { consider(owner) }
            }
        }
        for object in targets {
            for derivation in object.entity.derivations {
                let value: AttributeValue
                do {
                    value = try evaluation.value(of: derivation.expression, for: object)
                } catch {
                    throw derivationFailure(object, derivation, .custom, "cannot be computed: \(error.message)")
                }
                guard let typed = value.isNull ? .null : derivation.type.coerce(value) else {
                    throw derivationFailure(
                        object, derivation, .wrongType,
                        "computed \(value), which is not a \(derivation.type.modelFileName) value")
                }
                if object.currentValues[derivation.slot] != typed {
                    object.setPrimitiveValue(typed, atSlot: derivation.slot)
                }
            }
        }
    }

    /// The objects `object` holds in `relationship`, as it holds them now.
    private func related(_ object: ManagedObject, through relationship: String) throws -> [ManagedObject] {
        guard let property = object.entity.properties[relationship] else { return [] }
        if property.kind == .toMany { return try object.objects(forKey: relationship) }
        return try object.object(forKey: relationship).map { [$0] } ?? []
    }

    private func derivationFailure(
        _ object: ManagedObject, _ derivation: EntitySchema.Derivation, _ code: ValidationError.Code,
        _ reason: String
    ) -> ContextError {
        let key = "\(object.entity.name).\(derivation.name)"
        let message = "The derived attribute '\(key)' of \(object.objectID) \(reason)."
        return ContextError(
            code: .validation, message: message,
            validationErrors: [
                ValidationError(code: code, objectID: object.objectID, key: derivation.name, message: message)
            ])
    }
}

extension ModelSchema {
    /// The relationships of `entity` (its own and inherited) that lead to objects whose
    /// derived attributes read it.
    func derivationSources(of entity: EntitySchema) -> [String] {
        guard !derivationSources.isEmpty else { return [] }
        return ([entity.name] + entity.superentityNames).flatMap { derivationSources[$0] ?? [] }
    }
}
