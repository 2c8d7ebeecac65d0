import Networking
import Testing

@Suite struct URLEncodingTests {
    @Test func sortsKeysSoTheSameParametersAlwaysGiveTheSameText() {
        #expect(URLEncoding.encode(["b": 1, "a": 2, "c": 3]) == "a=2&b=1&c=3")
    }

    @Test func escapesSpaceAsPercentTwentyAndReservedCharactersInValues() {
        #expect(URLEncoding.encode(["q": "red car+blue&x=y?/#"]) == "q=red%20car%2Bblue%26x%3Dy%3F%2F%23")
    }

    @Test func keepsOnlyUnreservedCharactersUnescaped() {
        #expect(URLEncoding.escape("AZaz09-._~") == "AZaz09-._~")
        #expect(URLEncoding.escape("!*'();:@$,[]%") == "%21%2A%27%28%29%3B%3A%40%24%2C%5B%5D%25")
    }

    @Test func encodesNonASCIIAsUppercasePercentEncodedUTF8() {
        #expect(URLEncoding.encode(["city": "Zürich €"]) == "city=Z%C3%BCrich%20%E2%82%AC")
    }

    @Test func escapesKeysToo() {
        #expect(URLEncoding.encode(["a b": "1"]) == "a%20b=1")
    }

    @Test func repeatsTheKeyForEachArrayElementWithoutBrackets() {
        #expect(URLEncoding.encode(["brand": ["Audi", "BMW"], "page": 2]) == "brand=Audi&brand=BMW&page=2")
    }

    @Test func flattensNestedArraysAndOmitsEmptyArrays() {
        #expect(URLEncoding.encode(["a": [1, [2, 3]], "b": []]) == "a=1&a=2&a=3")
    }

    @Test func writesBooleansAsTrueAndFalseAndNumbersInDecimal() {
        #expect(URLEncoding.encode(["on": true, "off": false, "n": -4, "x": 2.5]) == "n=-4&off=false&on=true&x=2.5")
    }

    @Test func encodesNoParametersAsEmptyText() {
        #expect(URLEncoding.encode([:]) == "")
    }
}
