extension ManagedObjectContext {
    /// Works out the derived attributes of every object the save writes or whose derivation
    /// reads something the save changes, as Core Data's stores do when they save.
    ///
    /// An object's derived attributes are computed when it is inserted or updated, and when an
    /// object its derivation reads through relationships with inverses (a page of
    /// `pages.@count`, the publisher of `author.publisher.name`) is inserted, updated or deleted,
    /// or has a derived value that changed (so derivations built on derivations follow, for up
    /// to ``derivationRounds`` steps). Derivations that read nothing, such as `now()`, are
    /// computed only for the objects the save writes: those it inserts or updates, and those
    /// whose other derived values changed. Values that come out the
    /// same are left alone, so recomputing marks nothing as updated. A child context leaves the
    /// work to the save that reaches a store. `now()` is one date for the whole save.
    ///
    /// - Throws: ``ContextError`` with code ``ContextError/Code/validation`` naming the object and
    ///   attribute when a derivation cannot be evaluated or its value does not fit the
    ///   attribute's type.
    func updateDerivedAttributes() throws {
        guard parent == nil, schema.hasDerivations else { return }
        let evaluation = FetchEvaluation()
        let saved = pendingInserts.elements + pendingChanges.elements
        let direct = Set(saved.map(ObjectIdentifier.init))
        var changed = saved + pendingDeletions.elements
        for _ in 0..<Self.derivationRounds where !changed.isEmpty {
            var seen = Set<ObjectIdentifier>()
            var targets: [ManagedObject] = []
            func consider(_ object: ManagedObject) {
                guard !object.entity.derivations.isEmpty, !object.isDeleted,
                    seen.insert(ObjectIdentifier(object)).inserted
                else { return }
                targets.append(object)
            }
            for object in changed {
                consider(object)
                for way in schema.derivationSources(of: object.entity) {
                    for owner in try related(object, along: way) { consider(owner) }
                }
            }
            changed = []
            for object in targets {
                // An owner whose record has gone cannot be written; the save reports it.
                do { try object.willAccessValues() } catch { continue }
                let isDirect = direct.contains(ObjectIdentifier(object))
                var didChange = false
                // Derivations reading nothing (`now()`) follow only when the save writes the object.
                for readsOnlyItself in [false, true] where !readsOnlyItself || isDirect || didChange {
                    for derivation in object.entity.derivations where derivation.readsOnlyItself == readsOnlyItself {
                        let value = try derivedValue(derivation, of: object, in: evaluation)
                        guard derivation.slot < object.currentValues.count,
                            object.currentValues[derivation.slot] != value
                        else { continue }
                        object.setPrimitiveValue(value, atSlot: derivation.slot)
                        didChange = true
                    }
                }
                if didChange { changed.append(object) }
            }
        }
    }

    /// How many times a save follows derived values that changed to the derivations reading
    /// them; a longer chain (or a cycle) stops there.
    static let derivationRounds = 16

    /// The value of `derivation` for `object`, in its attribute's type.
    private func derivedValue(
        _ derivation: EntitySchema.Derivation, of object: ManagedObject, in evaluation: FetchEvaluation
    ) throws -> AttributeValue {
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
        return typed
    }

    /// The objects reached from `object` along the relationships `way`, as they are now.
    private func related(_ object: ManagedObject, along way: [String]) throws -> [ManagedObject] {
        var objects = [object]
        for relationship in way {
            var next: [ManagedObject] = []
            for current in objects {
                guard let property = current.entity.properties[relationship] else { continue }
                if property.kind == .toMany {
                    next += try current.objects(forKey: relationship)
                } else if let target = try current.object(forKey: relationship) {
                    next.append(target)
                }
            }
            objects = next
        }
        return objects
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
    /// The ways (relationship names, starting on `entity`, its own or inherited) that lead to
    /// objects whose derived attributes read it.
    func derivationSources(of entity: EntitySchema) -> [[String]] {
        guard !derivationSources.isEmpty else { return [] }
        return ([entity.name] + entity.superentityNames).flatMap { derivationSources[$0] ?? [] }
    }
}
