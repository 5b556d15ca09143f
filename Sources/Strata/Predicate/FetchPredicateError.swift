/// An error in a predicate: a format string that does not parse, an argument that does not
/// fit its placeholder, an expression that cannot be evaluated, or a typed predicate that does
/// not translate.
public struct FetchPredicateError: Error, Sendable, CustomStringConvertible {
    /// The kind of failure. New codes may be added; `switch` with a `default`.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Kind: Hashable, Sendable { case syntax, argument, evaluation, unknownVariable, untranslatable }
        private let kind: Kind

        /// The format string does not follow the predicate syntax; see ``FetchPredicateError/offset``.
        public static let syntax = Code(kind: .syntax)
        /// A format argument is missing, extra, or of the wrong type for its placeholder.
        public static let argument = Code(kind: .argument)
        /// The predicate cannot be evaluated (for example, an unknown function).
        public static let evaluation = Code(kind: .evaluation)
        /// A `$VARIABLE` has no value.
        public static let unknownVariable = Code(kind: .unknownVariable)
        /// A typed predicate (`#Predicate`) or sort descriptor holds an expression or key path
        /// that has no form in Strata's grammar; the message names it.
        public static let untranslatable = Code(kind: .untranslatable)

        /// The code's name.
        public var description: String { "\(kind)" }
    }

    /// The kind of failure.
    public var code: Code
    /// What went wrong, with the position and the format string for syntax errors.
    public var message: String
    /// The offset (in characters) in the format string where the problem was found.
    public var offset: Int?
    /// The error that caused this one, such as the regular-expression engine's, if any.
    public var underlying: (any Error & Sendable)?

    /// Creates an error.
    public init(code: Code, message: String, offset: Int? = nil, underlying: (any Error & Sendable)? = nil) {
        self.code = code
        self.message = message
        self.offset = offset
        self.underlying = underlying
    }

    /// The ``message``.
    public var description: String { message }
}
