import Testing

@testable import Strata

@Suite struct KeyReservationsTests {
    @Test func aFirstReservationIsExactlyWhatIsAskedAndLaterOnesDoubleUpToTheLargestBlock() {
        var reservations = KeyReservations()
        #expect(reservations.take(2, of: "Item") == nil)
        #expect(reservations.blockSize(toHandOut: 2, of: "Item") == 2)
        #expect(reservations.reserve(2, from: 1, of: "Item", handingOut: 2) == 1)
        #expect(reservations.take(1, of: "Item") == nil, "the first block is used up")
        #expect(reservations.blockSize(toHandOut: 1, of: "Item") == 4)
        #expect(reservations.reserve(4, from: 3, of: "Item", handingOut: 1) == 3)
        #expect(reservations.take(2, of: "Item") == 4)
        #expect(reservations.take(1, of: "Item") == 6)
        #expect(reservations.take(1, of: "Item") == nil)
        #expect(reservations.blockSize(toHandOut: 1, of: "Item") == 8)
        #expect(reservations.blockSize(toHandOut: 3_000, of: "Item") == 3_000, "never fewer than asked")
        #expect(reservations.blockSize(toHandOut: 1, of: "Tag") == 1, "each root entity has blocks of its own")
        _ = reservations.reserve(KeyReservations.largestBlock, from: 7, of: "Item", handingOut: 1)
        #expect(reservations.blockSize(toHandOut: 1, of: "Item") == KeyReservations.largestBlock)
    }

    @Test func aKeyInsertedFromOutsideIsSkippedWithEveryReservedKeyBeforeIt() {
        var reservations = KeyReservations()
        _ = reservations.reserve(10, from: 11, of: "Item", handingOut: 1)
        reservations.skip(past: 5, of: "Item")
        #expect(reservations.take(1, of: "Item") == 12, "a key before the reserved ones changes nothing")
        reservations.skip(past: 15, of: "Item")
        #expect(reservations.take(1, of: "Item") == 16)
        reservations.skip(past: 40, of: "Item")
        #expect(reservations.take(1, of: "Item") == nil, "a key past the reserved ones gives them all up")
    }

    @Test func theLastKeyOfTheCounterIsHandedOutWithoutAnOverflow() {
        var reservations = KeyReservations()
        #expect(reservations.reserve(2, from: .max - 1, of: "Item", handingOut: 1) == .max - 1)
        #expect(reservations.take(1, of: "Item") == .max)
        #expect(reservations.take(1, of: "Item") == nil)
        reservations.skip(past: .max, of: "Item")
        _ = reservations.reserve(3, from: .max - 2, of: "Tag", handingOut: 0)
        reservations.skip(past: .max - 1, of: "Tag")
        #expect(reservations.take(1, of: "Tag") == .max)
    }

    @Test func removingEverythingGivesUpTheReservedKeys() {
        var reservations = KeyReservations()
        _ = reservations.reserve(8, from: 1, of: "Item", handingOut: 1)
        reservations.removeAll()
        #expect(reservations.take(1, of: "Item") == nil)
        #expect(reservations.blockSize(toHandOut: 1, of: "Item") == 16, "the next block still grows")
    }

    @Test func aBlockThatWouldPassTheCounterLimitShrinksToTheKeysAskedFor() {
        #expect(KeyReservations.reservable(8, orAtLeast: 2, past: 100) == 8)
        #expect(KeyReservations.reservable(8, orAtLeast: 2, past: .max - 8) == 8)
        #expect(KeyReservations.reservable(8, orAtLeast: 2, past: .max - 7) == 2)
        #expect(KeyReservations.reservable(8, orAtLeast: 2, past: -5) == 8, "a negative counter has room")
    }
}
