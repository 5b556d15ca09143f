/// Lets the evaluator read a node held by an ``AtomicStoreAdapter``, following relationships
/// to the other nodes.
struct NodeResolver: KeyValueResolving {
    let node: StoreNode
    let nodes: AtomicNodeTable
    let schema: ModelSchema

    func resolvedValue(forKey key: String) -> ResolvedValue? {
        guard let entity = schema.entitiesByName[node.snapshot.objectID.entityName] else { return nil }
        if let relationship = entity.relationshipsByName[key] {
            if relationship.isToMany {
                return .objects((node.toManyRelationships[key] ?? []).compactMap(resolver))
            }
            guard case .objectID(let target)? = node.snapshot.values[key], let resolver = resolver(of: target) else {
                return .value(.null)
            }
            return .object(resolver)
        }
        guard entity.attributesByName[key] != nil else { return nil }
        return .value(node.snapshot.values[key] ?? .null)
    }

    var objectIdentity: AttributeValue { .objectID(node.snapshot.objectID) }

    /// What the evaluator reads for the related object `target`: its node, or a
    /// ``ForeignObjectReference`` when it is in another store; `nil` when it is gone.
    private func resolver(of target: ObjectID) -> (any KeyValueResolving)? {
        if target.storeIdentifier != node.snapshot.objectID.storeIdentifier { return ForeignObjectReference(target) }
        return nodes[target].map { NodeResolver(node: $0, nodes: nodes, schema: schema) }
    }
}
