import Foundation
import Synchronization

/// Collects what the typed property wrappers of a class declare, for a model made from classes
/// and for checking classes against a model.
///
/// A property wrapper is not told its property's name, and keeping its options in every object
/// would cost each object memory. Instead, while a recording runs, each wrapper's initializer
/// reports its declaration, evaluating its options only then; the recording makes one stand-in
/// object and pairs the reports with the wrapped properties `Mirror` lists. Swift initializes a
/// class's stored properties in declaration order, a subclass's before its superclass's, which
/// is the order of `Mirror`'s children from the class up. Outside a recording a wrapper's
/// initializer costs one relaxed atomic load.
enum DeclarationRecorder {
    /// How many recordings run; wrappers report only when it is not 0.
    private static let recordings = Atomic<Int>(0)
    /// The thread recording and what its wrappers reported so far.
    private static let reports = Locked<(thread: pthread_t?, declarations: [PropertyDeclaration])>((nil, []))
    /// Lets one recording run at a time.
    private static let turn = NSLock()

    /// Whether a recording runs, on any thread.
    static var isRecording: Bool { recordings.load(ordering: .relaxed) != 0 }

    /// Keeps `declaration` when the calling thread is recording.
    static func report(_ declaration: () -> PropertyDeclaration) {
        let thread = pthread_self()
        reports.withLock { reports in
            guard let recording = reports.thread, pthread_equal(recording, thread) != 0 else { return }
            reports.declarations.append(declaration())
        }
    }

    /// A stand-in object of `type`, made without a context, and the declarations its wrappers
    /// reported, in the order they were initialized.
    static func standIn(of type: ManagedObject.Type) -> (ManagedObject, [PropertyDeclaration]) {
        turn.lock()
        defer { turn.unlock() }
        reports.withLock { $0 = (pthread_self(), []) }
        recordings.add(1, ordering: .relaxed)
        let object = type.init(creating: ManagedObject.Creation(probe: KeyPathProbe()))
        recordings.subtract(1, ordering: .relaxed)
        let declarations = reports.withLock { reports in
            defer { reports = (nil, []) }
            return reports.declarations
        }
        return (object, declarations)
    }
}
