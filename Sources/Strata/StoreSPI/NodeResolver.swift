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
                let members = (node.toManyRelationships[key] ?? []).compactMap { nodes[$0] }
                return .objects(members.map { NodeResolver(node: $0, nodes: nodes, schema: schema) })
            }
            guard case .objectID(let target)? = node.snapshot.values[key], let targetNode = nodes[target] else {
                return .value(.null)
            }
            return .object(NodeResolver(node: targetNode, nodes: nodes, schema: schema))
        }
        guard entity.attributesByName[key] != nil else { return nil }
        return .value(node.snapshot.values[key] ?? .null)
    }

    var objectIdentity: AttributeValue { .objectID(node.snapshot.objectID) }
}
