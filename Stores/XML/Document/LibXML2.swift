import CStrataXML2

/// libxml2's process-wide set-up, which it asks for before it is used from several threads.
enum LibXML2 {
    /// Runs `xmlInitParser` once per process.
    private static let initialized: Void = xmlInitParser()

    /// Makes sure `xmlInitParser` has run; call before making a reader or writer.
    static func initialize() { initialized }
}
