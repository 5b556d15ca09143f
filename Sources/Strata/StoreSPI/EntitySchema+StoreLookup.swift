extension EntitySchema {
    /// The to-many relationship `name`, for a store listing its members.
    ///
    /// - Parameters:
    ///   - name: The relationship's name.
    ///   - storeName: How the error names the store, such as "The SQLite store at '/a.sqlite'".
    /// - Throws: ``StoreError`` with code ``StoreError/Code/unknownObject`` when the entity has no
    ///   to-many relationship of that name.
    public func toManyRelationship(named name: String, storeName: String) throws -> RelationshipDescription {
        guard let relationship = relationshipsByName[name], relationship.isToMany else {
            throw StoreError(
                code: .unknownObject,
                message: "\(storeName) cannot list members of '\(self.name).\(name)': it is not a to-many relationship."
            )
        }
        return relationship
    }
}
