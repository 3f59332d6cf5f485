//! The one escaping rule for text from a log in human output: nothing a log holds can move
//! the cursor, recolour, clear or reorder what a terminal shows.
//!
//! Every character that a terminal would act on instead of showing is replaced by one visible
//! character, so a column counted in characters stays the same:
//! - C0 controls other than line feed: the Unicode control pictures (`␛` for ESC, `␍` for a
//!   carriage return; in an excerpt the CR of a CRLF line end is kept, the report drawer ends
//!   the line there and never prints it); a tab is a space (a tab's width is the terminal's to
//!   choose, so columns would not line up);
//! - DEL: `␡`; C1 controls (U+0080 to U+009F): `�`;
//! - bidirectional formatting (U+202A to U+202E, U+2066 to U+2069, U+200E, U+200F, U+061C):
//!   `⇆`; zero-width characters (U+200B to U+200D, U+2060, U+FEFF): `¤`; the line and
//!   paragraph separators (U+2028, U+2029), which some terminals and every page take for a
//!   line break: `↵`.
//!
//! Pages and pictures (HTML, SVG) use [`format_stand_in`] for the characters that reorder or
//! hide text, beside their own markup escaping.

use std::borrow::Cow;

/// The visible stand-in for `c`, or `None` when `c` is shown as it is (a `\r` is judged by
/// its caller, which sees what follows it).
fn stand_in(c: char) -> Option<char> {
    match c {
        '\n' => None,
        '\t' => Some(' '),
        '\u{0}'..='\u{1f}' => char::from_u32(0x2400 + c as u32),
        '\u{7f}' => Some('\u{2421}'),
        '\u{80}'..='\u{9f}' => Some('\u{fffd}'),
        c => format_stand_in(c),
    }
}

/// The visible stand-in for a character that reorders, hides or breaks text without being a
/// control character: bidirectional formatting `⇆`, zero-width `¤`, line and paragraph
/// separators `↵`; `None` for any other.
pub fn format_stand_in(c: char) -> Option<char> {
    match c {
        '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}' | '\u{200e}' | '\u{200f}' | '\u{61c}' => {
            Some('\u{21c6}')
        }
        '\u{200b}'..='\u{200d}' | '\u{2060}' | '\u{feff}' => Some('\u{a4}'),
        '\u{2028}' | '\u{2029}' => Some('\u{21b5}'),
        _ => None,
    }
}

/// True when nothing in `s` needs escaping (the common case: no copy is made).
fn clean(s: &str) -> bool {
    if s.bytes().all(|b| (0x20..0x7f).contains(&b) || b == b'\n') {
        return true;
    }
    s.chars().all(|c| c != '\r' && stand_in(c).is_none())
}

/// `s` with every character a terminal would act on replaced by its visible stand-in, every
/// CR included: for texts drawn as they are (messages, labels, names).
pub fn visible(s: &str) -> Cow<'_, str> {
    if clean(s) {
        return Cow::Borrowed(s);
    }
    s.chars()
        .map(|c| match c {
            '\r' => '\u{240d}',
            c => stand_in(c).unwrap_or(c),
        })
        .collect::<String>()
        .into()
}

/// [`visible`] for a text that must stay on one line (a file name, a tag value in a
/// headline): a line feed becomes `␊` too, so no name or tag can start a line of its own and
/// pass it off as the report's.
pub fn visible_line(s: &str) -> Cow<'_, str> {
    let v = visible(s);
    if !v.contains('\n') {
        return v;
    }
    v.replace('\n', "\u{240a}").into()
}

/// A native log as `convert` and `show --log` write it: byte for byte into a file or a pipe
/// (nothing the user wrote is lost), with [`visible`] stand-ins when it goes to a `terminal`
/// (a comment cannot move, recolour or hide what the terminal shows).
pub fn log_text(text: &str, terminal: bool) -> Cow<'_, str> {
    match terminal {
        true => visible(text),
        false => Cow::Borrowed(text),
    }
}

/// [`visible`] for an excerpt of source lines, which keeps the CR of a CRLF line end, with
/// the byte offsets where the escaped text and `s` stop being aligned:
/// pairs (offset in `s`, offset in the result), starting with (0, 0), in order. A byte
/// offset of `s` on a character boundary maps to `virt + (offset - src)` of the last pair at
/// or before it.
pub fn visible_mapped(s: &str) -> (String, Vec<(usize, usize)>) {
    let mut out = String::with_capacity(s.len());
    let mut map = vec![(0, 0)];
    let mut chars = s.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        let bare_cr = c == '\r' && chars.peek().is_none_or(|&(_, n)| n != '\n');
        let shown = if bare_cr {
            Some('\u{240d}')
        } else if c == '\r' {
            None
        } else {
            stand_in(c)
        };
        match shown {
            Some(v) => {
                out.push(v);
                if v.len_utf8() != c.len_utf8() {
                    map.push((i + c.len_utf8(), out.len()));
                }
            }
            None => out.push(c),
        }
    }
    (out, map)
}

/// Where byte `at` of the source lands in the text [`visible_mapped`] made of it.
pub fn map_offset(map: &[(usize, usize)], at: usize) -> usize {
    let i = map.partition_point(|&(s, _)| s <= at).saturating_sub(1);
    let (s, v) = map[i];
    v + (at - s)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn controls_become_visible_one_character_each() {
        let s = "a\u{1b}[8mb\rc\r\nd\u{202e}e\u{7f}\u{85}\u{200b}\tf";
        let (v, _) = visible_mapped(s);
        assert_eq!(
            v,
            "a\u{241b}[8mb\u{240d}c\r\nd\u{21c6}e\u{2421}\u{fffd}\u{a4} f"
        );
        assert_eq!(v.chars().count(), s.chars().count());
        assert!(v.bytes().all(|b| b >= 0x20 || b == b'\n' || b == b'\r'));
        // a text drawn as it is keeps no CR at all
        let v = visible(s);
        assert_eq!(v.chars().count(), s.chars().count());
        assert!(v.bytes().all(|b| b >= 0x20 || b == b'\n'));
        assert!(v.contains("c\u{240d}\nd"));
        assert!(matches!(
            visible("plain text, é and 炮二平五"),
            Cow::Borrowed(_)
        ));
    }

    #[test]
    fn offsets_map_through_the_escapes() {
        let s = "a\u{1b}b\u{202e}c";
        let (v, map) = visible_mapped(s);
        // 'b' is byte 2 of s; ESC (1 byte) became a 3-byte picture.
        assert_eq!(&v[map_offset(&map, 2)..map_offset(&map, 3)], "b");
        // 'c' is byte 6 of s; the 3-byte RLO became the 3-byte ⇆.
        assert_eq!(&v[map_offset(&map, 6)..], "c");
    }
}
