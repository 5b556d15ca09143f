extension ManagedObjectContext {
    /// Which state of the stores a context reads.
    enum GenerationPin {
        /// Each store's latest state.
        case unpinned
        /// The newest generation, taken at the context's next read.
        case current
        /// One generation.
        case pinned(QueryGeneration)
    }

    /// The query generation the context reads: `nil` when it is unpinned and reads each
    /// store's latest state (the default); ``QueryGenerationToken/current`` when it pins to the
    /// newest generation at its next read; else its generation's token. A child context
    /// answers `nil`: it reads through its parent, and so through its parent's generation.
    ///
    /// A pinned context's fetches and faults see the stores as they were when the generation
    /// was taken, whatever other contexts, coordinators or processes save since; stores
    /// without ``StoreCapabilities/queryGenerations`` are read at their latest state, and
    /// stores added later are not read at all. The context moves to the newest generation on
    /// its own save, when it merges changes, on ``reset()`` and ``refreshAllObjects()``, and
    /// when a token is set; moving does not refresh the objects it has loaded.
    public var queryGenerationToken: QueryGenerationToken? {
        assertOnQueue()
        switch generationPin {
        case .unpinned: return nil
        case .current: return .current
        case .pinned(let generation): return QueryGenerationToken(generation: generation)
        }
    }

    /// Pins the context to the generation `token` names, to the newest generation at its next
    /// read (``QueryGenerationToken/current``), or unpins it (`nil`). Objects already loaded
    /// keep their values; fetch or refresh them to read the generation.
    ///
    /// - Throws: ``ContextError`` with code ``ContextError/Code/invalidQueryGeneration`` when
    ///   `token` comes from another coordinator's context, or when the context is a child
    ///   context (it reads through its parent's generation).
    public func setQueryGenerationFrom(_ token: QueryGenerationToken?) throws {
        assertOnQueue()
        guard parent == nil else {
            throw ContextError(
                code: .invalidQueryGeneration,
                message: "\(nameInMessages) is a child context: it reads through its parent's query generation; "
                    + "pin the parent instead.")
        }
        switch token?.generation {
        case nil where token == nil:
            generationPin = .unpinned
        case nil:
            generationPin = .current
        case let generation?:
            guard generation.coordinatorSerial == coordinator.serial else {
                throw ContextError(
                    code: .invalidQueryGeneration,
                    message: "\(nameInMessages) cannot be pinned to a query generation of another coordinator "
                        + "(\(QueryGenerationToken(generation: generation))); a token pins only contexts of the "
                        + "coordinator that took it.")
            }
            generationPin = .pinned(generation)
        }
    }

    /// Moves a pinned context to the newest generation, taken at its next read.
    func advanceQueryGeneration() {
        if case .pinned = generationPin { generationPin = .current }
    }

    /// Whether the context reads a query generation rather than the stores' latest state;
    /// such a context neither reads nor fills the coordinator's row cache.
    var readsQueryGeneration: Bool {
        if case .unpinned = generationPin { return false }
        return true
    }

    /// The generation the context reads, taking the newest one first when it is to pin at
    /// this read; `nil` when it reads the stores' latest state.
    func queryGeneration() throws -> QueryGeneration? {
        switch generationPin {
        case .unpinned: return nil
        case .pinned(let generation): return generation
        case .current:
            let generation = try coordinator.openQueryGeneration()
            generationPin = .pinned(generation)
            return generation
        }
    }

    /// How the context reads `store`: through its view in the context's generation when it
    /// has one there, else directly.
    func reads(of store: any IncrementalStore) throws -> any StoreReading {
        try queryGeneration()?.view(of: store) ?? store
    }

    /// The context as messages name it.
    var nameInMessages: String { name.map { "Context '\($0)'" } ?? "The context" }
}
