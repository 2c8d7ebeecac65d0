import Foundation
import Networking
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `NetworkError.description` reads as one line of words: an HTML error page shrinks to a short snippet,
/// URL-loading codes Foundation has no words for are explained, a missing key is named by its path.
@Suite struct NetworkErrorMessageTests {
    @Test func anHTMLErrorPageIsOneShortLineWithoutTags() {
        let page = "<!DOCTYPE html>\n<html>\n<head>\n<title>500 Internal Server Error</title>\n</head>\n<body>\n"
            + String(repeating: "  <p>Something went wrong on our side.</p>\n", count: 15) + "</body>\n</html>\n"
        let text = NetworkError.unacceptableStatus(code: 500, body: page).description
        #expect(!text.contains("\n") && !text.contains("<"))
        #expect(text.hasPrefix("HTTP 500: 500 Internal Server Error Something went wrong on our side. Something"))
        #expect(text.count == "HTTP 500: ".count + NetworkError.descriptionSnippetLength + 1)
        #expect(text.hasSuffix("…"))
    }

    @Test func aPlainBodyKeepsItsTextOnOneLine() {
        #expect(
            NetworkError.unacceptableStatus(code: 503, body: "busy,\r\n  try later").description
                == "HTTP 503: busy, try later")
        #expect(NetworkError.unacceptableStatus(code: 500, body: " \n ").description == "HTTP 500")
    }

    @Test func aBadURLCodeIsExplained() throws {
        let url = try #require(URL(string: "http://127.0.0.1:99999/status"))
        let error = URLError(.badURL, userInfo: [NSURLErrorFailingURLErrorKey: url])
        let text = NetworkError.transport(error).description
        #expect(!text.contains("NSURLErrorDomain"))
        #expect(
            text == "transport error: the address http://127.0.0.1:99999/status is not a URL that can be loaded; "
                + "check it (URLError -1000)")
    }

    @Test func anIPv6AddressRejectedByURLSessionIsExplainedWithAWayOut() throws {
        let url = try #require(URL(string: "http://[::1]:8080/status"))
        let error = URLError(.badURL, userInfo: [NSURLErrorFailingURLErrorKey: url])
        let text = NetworkError.transport(error).description
        #expect(text.contains("cannot connect to an IPv6 address written in the URL"))
        #expect(text.contains("such as localhost for [::1]"))
    }

    @Test func aCodeWithoutWordsIsExplained() {
        let text = NetworkError.transport(URLError(.cannotConnectToHost)).description
        #expect(!text.contains("NSURLErrorDomain"))
        #expect(text.hasPrefix("transport error: could not connect to the server; check that it is running"))
    }

    @Test func aMissingKeyIsNamedByItsPath() {
        struct Item: Decodable { var name: String }
        #expect {
            _ = try ResponseDecoding.decode([Item].self, from: Data(#"[{"name":"a"},{}]"#.utf8), decoder: JSONDecoder())
        } throws: { error in
            let text = (error as? NetworkError)?.description ?? ""
            return text == #"the answer could not be read: the field "name" is missing in item 2"#
                && !text.contains("CodingKeys")
        }
    }
}
