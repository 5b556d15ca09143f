// Loads Xcode model files.
