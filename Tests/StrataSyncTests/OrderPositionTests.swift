import Foundation
import StrataConformance
import StrataSync
import Testing

/// Positions in ordered relationships: base-62 fractions that always leave room between two,
/// stay short when members are appended one by one, and refuse what is not one.
@Suite struct OrderPositionTests {
    @Test func aPositionIsBase62DigitsNotEndingInZero() throws {
        for text in ["1", "V", "zz", "0V", "A0b"] { #expect(OrderPosition(text)?.text == text) }
        let tooLong = String(repeating: "V", count: OrderPosition.maximumLength + 1)
        for text in ["", "0", "V0", "a-b", "é", " 1", tooLong] { #expect(OrderPosition(text) == nil) }
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(OrderPosition.self, from: Data("\"V0\"".utf8)) }
        let position = try #require(OrderPosition("aV"))
        #expect(try JSONDecoder().decode(OrderPosition.self, from: JSONEncoder().encode(position)) == position)
    }

    @Test func positionsCompareAsTheirFractions() throws {
        let ascending = ["0V", "1", "1V", "9", "A", "Z", "a", "z", "z1"].compactMap(OrderPosition.init)
        #expect(ascending.count == 9)
        #expect(ascending.sorted() == ascending)
    }

    @Test(arguments: [1, 2, 3])
    func newPositionsLieBetweenTheirNeighboursInOrder(_ seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let digits = Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz")
        func randomPosition() -> OrderPosition {
            while true {
                let text = String(
                    (0..<Int.random(in: 1...4, using: &random)).map { _ in digits.randomElement(using: &random)! })
                if let position = OrderPosition(text) { return position }
            }
        }
        for _ in 0..<2_000 {
            var bounds: [OrderPosition?] = [randomPosition(), randomPosition()]
            if Bool.random(using: &random) { bounds[0] = nil }
            if Bool.random(using: &random) { bounds[1] = nil }
            if let lower = bounds[0], let upper = bounds[1] {
                guard lower != upper else { continue }
                bounds = [min(lower, upper), max(lower, upper)]
            }
            let count = Int.random(in: 1...12, using: &random)
            let positions = OrderPosition.positions(count, between: bounds[0], and: bounds[1])
            #expect(positions.count == count)
            let chain = [bounds[0]].compactMap { $0 } + positions + [bounds[1]].compactMap { $0 }
            #expect(zip(chain, chain.dropFirst()).allSatisfy { $0 < $1 }, "\(bounds) \(positions)")
            #expect(positions.allSatisfy { OrderPosition($0.text) == $0 })
        }
    }

    @Test func appendingOneByOneAndSpreadingManyStayShort() throws {
        var last: OrderPosition?
        for _ in 0..<1_000 {
            let next = try #require(OrderPosition.positions(1, between: last, and: nil).first)
            if let last { #expect(last < next) }
            last = next
        }
        #expect((last?.text.count ?? 0) <= 20)
        let spread = OrderPosition.positions(100_000, between: nil, and: nil)
        #expect(spread.map(\.text.count).max() ?? 0 <= 5)
        #expect(zip(spread, spread.dropFirst()).allSatisfy { $0 < $1 })
    }
}
