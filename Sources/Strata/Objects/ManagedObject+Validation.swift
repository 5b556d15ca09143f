import Foundation

extension ManagedObject {
    /// Every way the object breaks its model's rules, after giving ``validateValue(_:forKey:)``
    /// each attribute that passes them.
    func modelValidationErrors() -> [ValidationError] {
        var errors: [ValidationError] = []
        let entity = entity
        for rule in entity.attributeRules {
            let current = rule.slot < currentValues.count ? currentValues[rule.slot] : .null
            // Only an attribute with bounds, or a value that breaks optionality or type, needs
            // its full description.
            if rule.hasBounds || (current.isNull ? !rule.isOptional : !rule.type.accepts(current)) {
                let found = attributeErrors(entity.attributes[rule.index], current)
                guard found.isEmpty else {
                    errors += found
                    continue
                }
            }
            var value = current
            let key = entity.slotNames[rule.slot]
            do {
                try validateValue(&value, forKey: key)
                if value != current { setPrimitiveValue(value, atSlot: rule.slot) }
            } catch {
                errors.append(custom(error, key: key))
            }
        }
        for index in entity.boundedRelationships {
            errors += relationshipErrors(entity.relationships[index])
        }
        return errors
    }

    /// A relationship with the deny rule that still has members refuses the deletion.
    func denyRuleErrors() -> [ValidationError] {
        entity.relationships.filter { $0.deleteRule == .deny }.compactMap { relationship in
            let members = (try? destinations(of: relationship)) ?? []
            let remaining = members.filter { !$0.isDeleted }
            guard let first = remaining.first else { return nil }
            return ValidationError.deleteDenied(
                objectID, relationship: relationship.name, holding: first.objectID, remainingCount: remaining.count)
        }
    }

    /// The objects `relationship` points to now.
    func destinations(of relationship: RelationshipDescription) throws -> [ManagedObject] {
        if relationship.isToMany { return try objects(forKey: relationship.name) }
        return try object(forKey: relationship.name).map { [$0] } ?? []
    }

    /// Throws nothing, the one error, or a ``ContextError/Code/validation`` error holding them all.
    func throwIfInvalid(_ errors: [ValidationError]) throws {
        guard let first = errors.first else { return }
        guard errors.count > 1 else { throw first }
        throw ContextError(
            code: .validation, message: errors.map(\.message).joined(separator: " "), validationErrors: errors)
    }

    /// A validation error wrapping what an override threw.
    func custom(_ error: any Error, key: String?) -> ValidationError {
        if let validation = error as? ValidationError { return validation }
        let place = key.map { "'\(entity.name).\($0)'" } ?? "\(entity.name)"
        return ValidationError(
            code: .custom, objectID: objectID, key: key, message: "\(place) of \(objectID) is invalid: \(error)",
            underlying: error)
    }

    private func attributeErrors(_ attribute: AttributeDescription, _ value: AttributeValue) -> [ValidationError] {
        func error(_ code: ValidationError.Code, _ text: String) -> [ValidationError] {
            let name = "'\(entity.name).\(attribute.name)'"
            return [
                ValidationError(
                    code: code, objectID: objectID, key: attribute.name, message: "\(name) of \(objectID) \(text)")
            ]
        }
        if value.isNull {
            return attribute.isOptional ? [] : error(.missingValue, "needs a value.")
        }
        guard attribute.type.accepts(value) else {
            return error(.wrongType, "is \(attribute.type.modelFileName); \(value) is not.")
        }
        if let minimum = attribute.minValue, value.compare(minimum) == .orderedAscending {
            return error(.tooSmall, "is \(value), below the minimum \(minimum).")
        }
        if let maximum = attribute.maxValue, value.compare(maximum) == .orderedDescending {
            return error(.tooLarge, "is \(value), above the maximum \(maximum).")
        }
        // Counting a string's characters walks it: only done when a length bound asks for it.
        var length: Int?
        if attribute.minLength != nil || attribute.maxLength != nil {
            switch value {
            case .string(let text): length = text.count
            case .binary(let data): length = data.count
            default: length = nil
            }
        }
        if let length, let minimum = attribute.minLength, length < minimum {
            return error(.tooShort, "has length \(length), below the minimum \(minimum).")
        }
        if let length, let maximum = attribute.maxLength, length > maximum {
            return error(.tooLong, "has length \(length), above the maximum \(maximum).")
        }
        if let pattern = attribute.regularExpression, case .string(let text) = value {
            let matches = (try? RegularExpressionPattern(pattern, options: []).matches(text)) ?? false
            if !matches { return error(.patternMismatch, "is \"\(text)\", which does not match /\(pattern)/.") }
        }
        return []
    }

    private func relationshipErrors(_ relationship: RelationshipDescription) -> [ValidationError] {
        // An optional relationship without count bounds is valid whatever it holds: nothing to load.
        let hasCountBounds = relationship.isToMany && (relationship.minCount > 0 || relationship.maxCount > 0)
        guard !relationship.isOptional || hasCountBounds else { return [] }
        let name = "'\(entity.name).\(relationship.name)'"
        let count = (try? destinations(of: relationship).count) ?? 0
        if count == 0, !relationship.isOptional {
            return [
                ValidationError(
                    code: .missingValue, objectID: objectID, key: relationship.name,
                    message: "\(name) of \(objectID) needs at least one object.")
            ]
        }
        guard relationship.isToMany, count > 0 || !relationship.isOptional else { return [] }
        if relationship.minCount > 0, count < relationship.minCount {
            return [
                ValidationError(
                    code: .tooFewObjects, objectID: objectID, key: relationship.name,
                    message:
                        "\(name) of \(objectID) has \(count) objects, fewer than the minimum \(relationship.minCount).")
            ]
        }
        if relationship.maxCount > 0, count > relationship.maxCount {
            return [
                ValidationError(
                    code: .tooManyObjects, objectID: objectID, key: relationship.name,
                    message:
                        "\(name) of \(objectID) has \(count) objects, more than the maximum \(relationship.maxCount).")
            ]
        }
        return []
    }
}
