// The tests that import StrataTestSupport get the throwaway PostgreSQL server with it.
@_exported import StrataPostgresTesting
