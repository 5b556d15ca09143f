extension ManagedObject {
    /// Makes a loaded object without unsaved changes a fault again, dropping its values and
    /// loaded to-many members so their memory can go; its next use loads them again. An object
    /// with changes, a deleted or inaccessible object and a fault are left as they are.
    func releaseValuesIfUnchanged() {
        guard !faulted, !isInaccessible, !hasChanges else { return }
        turnIntoFault()
    }
}
