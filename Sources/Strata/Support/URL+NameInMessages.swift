import Foundation

extension URL {
    /// How messages name the store at this URL: a file by its path; a store on a server by its
    /// URL, with any password masked.
    package var nameInMessages: String {
        guard !isFileURL, var components = URLComponents(url: self, resolvingAgainstBaseURL: false) else { return path }
        if components.password != nil { components.password = "***" }
        return components.string ?? absoluteString
    }
}
