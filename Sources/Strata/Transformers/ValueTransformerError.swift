/// A value that a transformer could not convert.
public struct ValueTransformerError: Error, Sendable, CustomStringConvertible {
    /// What went wrong.
    public var message: String
    /// Creates an error.
    public init(message: String) { self.message = message }
    public var description: String { message }
}
