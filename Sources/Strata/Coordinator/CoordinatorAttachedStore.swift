/// A store that holds something, such as the lock on its file, only while coordinators use it:
/// a coordinator tells it when it is added and when it is removed (also when migration swaps it
/// for its copy).
protocol CoordinatorAttachedStore: AnyObject {
    /// The store is about to be added to a coordinator; throwing keeps it out.
    func willAttach() throws
    /// The store was removed from a coordinator.
    func didDetach()
}
