import Markup
import Testing

@Suite struct HTMLTextTests {
    @Test func everyCharacterWithAMeaningInMarkupIsAReference() {
        #expect(
            HTMLText.escape(#"<a href="x?a=1&b='2'">é</a>"#)
                == "&lt;a href=&quot;x?a=1&amp;b=&#39;2&#39;&quot;&gt;é&lt;/a&gt;")
        #expect(HTMLText.escape("plain text") == "plain text")
        #expect(HTMLText.escape("") == "")
    }
}
