import Strata

extension IncrementalStore {
    /// The IDs the store answers `request` with, asked for as `StoreFetchRequest/ResultType/objectIDs`.
    func fetchedIDs(_ request: StoreFetchRequest) throws -> [ObjectID] {
        try fetched(request, as: .objectIDs) { result in
            if case .objectIDs(let ids) = result { ids } else { nil }
        }
    }

    /// The snapshots the store answers `request` with, asked for as `StoreFetchRequest/ResultType/snapshots`.
    func fetchedSnapshots(_ request: StoreFetchRequest) throws -> [Snapshot] {
        try fetched(request, as: .snapshots) { result in
            if case .snapshots(let snapshots) = result { snapshots } else { nil }
        }
    }

    /// The count the store answers `request` with, asked for as `StoreFetchRequest/ResultType/count`.
    func fetchedCount(_ request: StoreFetchRequest) throws -> Int {
        try fetched(request, as: .count) { result in
            if case .count(let count) = result { count } else { nil }
        }
    }

    private func fetched<T>(
        _ request: StoreFetchRequest, as resultType: StoreFetchRequest.ResultType, _ unwrap: (StoreFetchResult) -> T?
    ) throws -> T {
        try fetchResult(request, as: resultType, from: execute, unwrap)
    }
}

extension StoreGeneration {
    /// The snapshots the view answers `request` with, asked for as `StoreFetchRequest/ResultType/snapshots`.
    func fetchedSnapshots(_ request: StoreFetchRequest) throws -> [Snapshot] {
        try fetchResult(request, as: .snapshots, from: execute) { result in
            if case .snapshots(let snapshots) = result { snapshots } else { nil }
        }
    }

    /// The count the view answers `request` with, asked for as `StoreFetchRequest/ResultType/count`.
    func fetchedCount(_ request: StoreFetchRequest) throws -> Int {
        try fetchResult(request, as: .count, from: execute) { result in
            if case .count(let count) = result { count } else { nil }
        }
    }
}

/// Runs `request` for `resultType` with `execute` and unwraps the result; a result of another
/// type fails the check.
private func fetchResult<T>(
    _ request: StoreFetchRequest, as resultType: StoreFetchRequest.ResultType,
    from execute: (StoreFetchRequest) throws -> StoreFetchResult, _ unwrap: (StoreFetchResult) -> T?
) throws -> T {
    var request = request
    request.resultType = resultType
    let result = try execute(request)
    guard let value = unwrap(result) else {
        throw CheckFailure("A fetch of \(request.entityName) for \(resultType) returned \(result).")
    }
    return value
}
