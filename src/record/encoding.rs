//! Text logs in GB2312, GBK or GB18030 (Chinese Xiangqi records: `炮二平五` in two bytes a
//! character), decoded with `encoding_rs` so that they are read like UTF-8 logs while every
//! span stays a byte offset in the user's file.
//!
//! [`decode_gb`] gives the UTF-8 text the grammar reads, an offset map back to the original
//! bytes ([`Decoded::original`]), and a display text of exactly the original length (ASCII as
//! it is, each multi-byte character as `·` placeholders of its byte length) that reports draw
//! their excerpts from, so lines and columns are those of the file.

use crate::finding::{Code, Finding};
use crate::rulebook::Rule;
use crate::types::Span;
use encoding_rs::GB18030;

/// A GB-encoded text, decoded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Decoded {
    /// The text as UTF-8.
    pub text: String,
    /// As many bytes as the original: ASCII kept, each multi-byte character written as `·`
    /// (two bytes in UTF-8) per two bytes.
    pub display: String,
    /// (offset in `text`, offset in the original) after each multi-byte character, in order,
    /// starting with (0, 0): where the two stop being aligned.
    map: Vec<(usize, usize)>,
}

impl Decoded {
    /// The original byte offset of the byte `at` of [`Decoded::text`] (a character boundary).
    pub fn original(&self, at: usize) -> usize {
        let i = self
            .map
            .partition_point(|&(d, _)| d <= at)
            .saturating_sub(1);
        let (d, o) = self.map.get(i).copied().unwrap_or((0, 0));
        o + (at - d)
    }
}

/// The length of the GB18030 sequence starting with `lead` and `next` (2, or 4 when the second
/// byte is a digit), or `None` when `lead` starts none.
fn sequence_len(lead: u8, next: Option<u8>) -> Option<usize> {
    match (lead, next) {
        (0x81..=0xFE, Some(b'0'..=b'9')) => Some(4),
        (0x81..=0xFE, Some(_)) => Some(2),
        _ => None,
    }
}

/// Decodes `bytes` when they are not UTF-8 but valid GB18030 (which holds GBK and GB2312)
/// with at least one multi-byte character; `None` otherwise (the caller reports the invalid
/// UTF-8). Linear in the input.
pub fn decode_gb(bytes: &[u8]) -> Option<Decoded> {
    if bytes.is_ascii() || std::str::from_utf8(bytes).is_ok() {
        return None;
    }
    let mut out = Decoded {
        text: String::with_capacity(bytes.len() + bytes.len() / 2),
        display: String::with_capacity(bytes.len()),
        map: vec![(0, 0)],
    };
    let mut i = 0;
    if bytes.starts_with(BOM) {
        // A UTF-8 byte order mark before GB text (editors add one): kept as the mark, three
        // bytes in both texts, not read as GB18030, where it would swallow the next byte.
        out.text.push('\u{feff}');
        out.display.push('\u{feff}');
        i = BOM.len();
    }
    while i < bytes.len() {
        let ascii = bytes[i..].iter().take_while(|b| b.is_ascii()).count();
        if ascii > 0 {
            let run = std::str::from_utf8(&bytes[i..i + ascii]).ok()?;
            out.text.push_str(run);
            out.display.push_str(run);
            i += ascii;
            continue;
        }
        let len = sequence_len(bytes[i], bytes.get(i + 1).copied())?;
        let seq = bytes.get(i..i + len)?;
        let decoded = GB18030.decode_without_bom_handling_and_without_replacement(seq)?;
        out.text.push_str(&decoded);
        for _ in 0..len / 2 {
            out.display.push('·');
        }
        i += len;
        out.map.push((out.text.len(), i));
    }
    Some(out)
}

/// The UTF-8 byte order mark (three bytes), which text logs may start with.
pub const BOM: &[u8] = b"\xEF\xBB\xBF";

/// The `record-defect` warning for a log read as GB18030, at its first byte that is not
/// ASCII (`bytes` start at `base` of the source).
pub fn gb_finding(bytes: &[u8], base: usize) -> Finding {
    // A byte order mark is kept as one ([`decode_gb`]): the first character after it.
    let skip = if bytes.starts_with(BOM) { BOM.len() } else { 0 };
    let first = bytes[skip..].iter().position(|b| !b.is_ascii());
    let at = base + first.map_or(0, |k| skip + k);
    Finding::new(
        Code::RecordDefect,
        Span::new(at, at + 2),
        "the log is not UTF-8: its text is read as GB18030 (GBK, GB2312)",
        Rule::LogUtf8,
    )
    .label("the first character that is not ASCII")
    .help("save the file as UTF-8; report excerpts show its Chinese characters as ·")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gbk_is_decoded_and_offsets_map_back() {
        // 炮二平五 in GBK: c5da b6fe c6bd cee5.
        let bytes = b"1. \xc5\xda\xb6\xfe\xc6\xbd\xce\xe5 x".to_vec();
        let d = decode_gb(&bytes).unwrap();
        assert_eq!(d.text, "1. 炮二平五 x");
        assert_eq!(d.display.len(), bytes.len());
        assert_eq!(d.display, "1. ···· x");
        let start = d.text.find('炮').unwrap();
        let end = d.text.find(" x").unwrap();
        assert_eq!((d.original(start), d.original(end)), (3, 11));
        assert_eq!(d.original(d.text.len()), bytes.len());
    }

    #[test]
    fn a_byte_order_mark_before_gb_text_stays_a_mark() {
        let bytes = b"\xEF\xBB\xBF[A \"\xc5\xda\"]".to_vec();
        let d = decode_gb(&bytes).unwrap();
        assert_eq!(d.text, "\u{feff}[A \"炮\"]");
        assert_eq!(d.display, "\u{feff}[A \"·\"]");
        assert_eq!(d.original(d.text.find('"').unwrap()), 6);
        assert_eq!(
            gb_finding(&bytes, 10).span,
            Span::new(17, 19),
            "at 炮, not the mark"
        );
    }

    #[test]
    fn utf8_and_broken_bytes_are_not_gb() {
        assert_eq!(decode_gb("炮二平五".as_bytes()), None);
        assert_eq!(decode_gb(b"plain"), None);
        assert_eq!(decode_gb(b"ab\xff\xfe"), None);
        assert_eq!(decode_gb(b"ab\xc5"), None);
    }
}
