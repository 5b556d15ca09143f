extension StoreOptions {
    /// The setting `key` as an integer; `nil` when it is not set.
    ///
    /// - Throws: ``StoreError`` with code ``StoreError/Code/invalidOption`` naming the store
    ///   type, the key and the value when the value is not a whole number.
    public func integer(_ key: String, of storeType: String) throws -> Int? {
        guard let text = settings[key] else { return nil }
        guard let value = Int(text) else {
            throw StoreError(
                code: .invalidOption,
                message: "The \(storeType) setting '\(key)' is '\(text)', which is not a whole number.")
        }
        return value
    }

    /// The setting `key` as a Boolean (`true` or `false`); `nil` when it is not set.
    ///
    /// - Throws: ``StoreError`` with code ``StoreError/Code/invalidOption`` naming the store
    ///   type, the key and the value when the value is neither.
    public func boolean(_ key: String, of storeType: String) throws -> Bool? {
        switch settings[key] {
        case nil: return nil
        case "true": return true
        case "false": return false
        case let text?:
            throw StoreError(
                code: .invalidOption,
                message: "The \(storeType) setting '\(key)' is '\(text)'; it takes true or false.")
        }
    }
}
