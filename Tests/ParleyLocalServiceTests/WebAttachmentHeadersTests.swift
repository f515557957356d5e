import HTTPTypes
import Testing

@testable import ParleyWeb

/// How `parley web` hands over an attachment whose name and type the sender chose.
@Suite struct WebAttachmentHeadersTests {
    @Test func anImageIsShownInlineAndSandboxed() {
        let headers = WebAPI.attachmentHeaders(type: "image/PNG", name: "cat.png")
        #expect(headers[.contentType] == "image/png")
        #expect(headers[.contentDisposition] == "inline; filename=\"cat.png\"; filename*=UTF-8''cat%2Epng")
        #expect(headers[HTTPField.Name("Content-Security-Policy")!] == "default-src 'none'; sandbox")
    }

    @Test func anythingElseIsSavedNeverRendered() {
        for type in ["text/html", "image/svg+xml", "text/javascript", "application/pdf", "image/png; charset=x", nil] {
            let headers = WebAPI.attachmentHeaders(type: type, name: "page.html")
            #expect(headers[.contentType] == "application/octet-stream", "\(String(describing: type))")
            #expect(headers[.contentDisposition]?.hasPrefix("attachment;") == true, "\(String(describing: type))")
        }
    }

    @Test func aHostileNameCannotBreakTheHeader() {
        let headers = WebAPI.attachmentHeaders(type: "application/zip", name: "a\"b\\c\r\nSet-Cookie: x=y; é.zip")
        let disposition = headers[.contentDisposition] ?? ""
        #expect(!disposition.contains("\r") && !disposition.contains("\n"))
        #expect(
            disposition.hasPrefix(
                "attachment; filename=\"a_b_c__Set-Cookie: x=y; _.zip\"; filename*=UTF-8''a%22b%5Cc%0D%0ASet%2DCookie%3A%20x%3Dy%3B%20%C3%A9%2Ezip"
            ))
    }
}
