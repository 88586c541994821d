import JSON
import Testing

/// `fixedNumber` and `plainNumber`: the package's formatters of numbers for people.
@Suite struct NumberTextTests {
    @Test func fixedNumbersAlwaysShowTheirDigitsAndRoundHalvesAwayFromZero() {
        #expect(fixedNumber(6.006, digits: 3) == "6.006")
        #expect(fixedNumber(2.5, digits: 2) == "2.50")
        #expect(fixedNumber(2.5, digits: 0) == "3")
        #expect(fixedNumber(-2.5, digits: 0) == "-3")
        #expect(fixedNumber(-0.25, digits: 1) == "-0.3")
        #expect(fixedNumber(0.05, digits: 1) == "0.1")
        #expect(fixedNumber(1234.5678, digits: 2) == "1234.57")
        #expect(fixedNumber(0.001, digits: 3) == "0.001")
    }

    @Test func aValueThatRoundsToZeroHasNoSign() {
        #expect(fixedNumber(-0.004, digits: 2) == "0.00")
        #expect(fixedNumber(-0.0, digits: 1) == "0.0")
    }

    @Test func trimmingDropsTrailingZerosAndTheDot() {
        #expect(fixedNumber(1.80, digits: 1, trimmingZeros: true) == "1.8")
        #expect(fixedNumber(2.0, digits: 1, trimmingZeros: true) == "2")
        #expect(fixedNumber(-0.1275, digits: 6, trimmingZeros: true) == "-0.1275")
        #expect(fixedNumber(-0.1275, digits: 6) == "-0.127500")
    }

    @Test func nonFiniteAndHugeValuesPrintAsSwiftPrintsThem() {
        #expect(fixedNumber(.nan, digits: 2) == "nan")
        #expect(fixedNumber(-.infinity, digits: 2) == "-inf")
        #expect(fixedNumber(1e300, digits: 1) == "1e+300")
        #expect(fixedNumber(-2.6e23, digits: 2) == "-2.6e+23")
        #expect(fixedNumber(1e6, digits: 6) == "1000000.000000")
    }

    @Test func plainNumbersDropAZeroFraction() {
        #expect(plainNumber(30) == "30")
        #expect(plainNumber(4.5) == "4.5")
        #expect(plainNumber(1e-5) == "1e-05")
    }
}
