/// A store's read view pinned to one committed state: what a context pinned to a query
/// generation reads instead of the store itself (``IncrementalStore/openGeneration()``).
///
/// Obligations of a store author, with the conformance checks that enforce them:
/// - Every read answers exactly as the store's own read of the same name would have answered
///   when the generation was opened, whatever the store, another coordinator or another
///   process saves since. Checks: `Q.fetchUnchangedAfterOtherSave`,
///   `Q.countUnchangedAfterOtherSave`, `Q.faultOfDeletedObjectFires`,
///   `Q.toManyUnchangedAfterOtherSave`.
/// - The view holds what it needs (a read transaction) while the object lives, and lets it go
///   when the object is released; a view that can no longer read (its store was closed, or it
///   outlived a limit the store documents) fails with
///   ``StoreError/Code/generationUnavailable``, never with a newer state.
/// - It is `Sendable` and safe to call from several threads; the calls may be serialised.
public protocol StoreGeneration: StoreReading {}
