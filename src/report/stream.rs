//! Documents written as they are judged: a JSON document whose one array (the games, the
//! SARIF results) is streamed item by item, byte for byte what `serde_json::to_string_pretty`
//! of the whole document gives, so memory stays bounded by the games in flight.

use serde_json::Value;

/// The placeholder that marks the streamed array's place in the document.
const MARK: &str = "\u{0}arbiter-streamed-array\u{0}";

/// A pretty JSON document around one streamed array: [`Streamed::head`], the items (each
/// rendered by [`Streamed::item`]) with [`Streamed::SEPARATOR`] between them, then the tail
/// from [`Streamed::tail`].
#[derive(Debug, Clone)]
pub struct Streamed {
    indent: usize,
}

/// Splits `doc`, whose streamed array holds only [`MARK`], around the mark's line:
/// (text before, indentation of the items, text after).
fn split(doc: &Value) -> (String, usize, String) {
    let text = serde_json::to_string_pretty(doc).unwrap_or_default();
    let mark = serde_json::to_string(MARK).unwrap_or_default();
    let at = text.find(&mark).unwrap_or(text.len());
    let line_start = text[..at].rfind('\n').map_or(0, |i| i + 1);
    let indent = at - line_start;
    let before = text[..line_start.saturating_sub(1)].to_string();
    let after_mark = (at + mark.len()).min(text.len());
    let after = text[after_mark..].to_string();
    (before, indent, after)
}

impl Streamed {
    /// Between two items.
    pub const SEPARATOR: &'static str = ",\n";

    /// The placeholder value to put in the document where the streamed array goes: an array
    /// holding only the mark.
    pub fn placeholder() -> Value {
        Value::Array(vec![Value::String(MARK.into())])
    }

    /// The text before the first item of `doc` (built with [`Streamed::placeholder`]), and
    /// the streamer that renders items at the array's depth. It ends with the array's `[`.
    pub fn head(doc: &Value) -> (String, Streamed) {
        let (before, indent, _) = split(doc);
        (before, Streamed { indent })
    }

    /// One item, pretty-printed at the array's depth (no separator).
    pub fn item<T: serde::Serialize + ?Sized>(&self, v: &T) -> String {
        self.indent(&serde_json::to_string_pretty(v).unwrap_or_default())
    }

    /// Pretty JSON text (at depth 0) indented to the array's depth.
    pub fn indent(&self, text: &str) -> String {
        let pad = " ".repeat(self.indent);
        let mut out = String::with_capacity(text.len() + 64);
        for (i, line) in text.split('\n').enumerate() {
            if i > 0 {
                out.push('\n');
            }
            out.push_str(&pad);
            out.push_str(line);
        }
        out
    }

    /// The text after the last item of `doc` (the document as it ends, built with
    /// [`Streamed::placeholder`]), closing the array; `empty` when no item was written.
    pub fn tail(doc: &Value, empty: bool) -> String {
        let (_, _, after) = split(doc);
        if empty {
            // `[` was written: close it on the same line, as an empty array prints.
            let close = after.trim_start_matches(|c: char| c.is_whitespace());
            return close.to_string();
        }
        after
    }

    /// `doc` (built with [`Streamed::placeholder`]) printed compact and cut around the
    /// array's items: the text up to its `[` and from its `]`.
    pub fn compact_split(doc: &Value) -> (String, String) {
        let text = doc.to_string();
        let mark = serde_json::to_string(MARK).unwrap_or_default();
        match text.find(&mark) {
            Some(at) => (text[..at].to_string(), text[at + mark.len()..].to_string()),
            None => (text, String::new()),
        }
    }

    /// What follows the `[` of the head before the first item.
    pub fn first(&self) -> &'static str {
        "\n"
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn streamed(items: &[Value]) -> String {
        let doc = |v: Value| json!({"a": {"b": 1}, "games": v, "summary": {"n": items.len()}});
        let (mut out, s) = Streamed::head(&doc(Streamed::placeholder()));
        for (i, it) in items.iter().enumerate() {
            out.push_str(if i == 0 {
                s.first()
            } else {
                Streamed::SEPARATOR
            });
            out.push_str(&s.item(it));
        }
        out.push_str(&Streamed::tail(
            &doc(Streamed::placeholder()),
            items.is_empty(),
        ));
        out
    }

    #[test]
    fn streaming_gives_the_pretty_document() {
        for items in [
            vec![],
            vec![json!({"x": [1, 2], "y": "a\nb"})],
            vec![json!(1), json!({"z": {}}), json!([])],
        ] {
            let doc = json!({"a": {"b": 1}, "games": items, "summary": {"n": items.len()}});
            assert_eq!(
                streamed(&items),
                serde_json::to_string_pretty(&doc).unwrap()
            );
        }
    }

    #[test]
    fn nested_arrays_stream_too() {
        let items = vec![json!({"ruleId": "x"}), json!({"ruleId": "y"})];
        let doc = |v: Value| json!({"runs": [{"tool": {}, "results": v}]});
        let (mut out, s) = Streamed::head(&doc(Streamed::placeholder()));
        for (i, it) in items.iter().enumerate() {
            out.push_str(if i == 0 {
                s.first()
            } else {
                Streamed::SEPARATOR
            });
            out.push_str(&s.item(it));
        }
        out.push_str(&Streamed::tail(&doc(Streamed::placeholder()), false));
        assert_eq!(
            out,
            serde_json::to_string_pretty(&doc(json!(items))).unwrap()
        );
        let (mut out, _) = Streamed::head(&doc(Streamed::placeholder()));
        out.push_str(&Streamed::tail(&doc(Streamed::placeholder()), true));
        assert_eq!(out, serde_json::to_string_pretty(&doc(json!([]))).unwrap());
    }
}
