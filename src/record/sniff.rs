//! What a text log's bytes say about its ruleset before any game is parsed: the ruleset its
//! content shows ([`content_game`]: xqbase and engine PGN are Xiangqi), and whether one game's
//! tags name a ruleset ([`names_ruleset`]). Byte scans only, linear in what they look at; the
//! reader runs them so that every game of a file is judged the same way and a file whose
//! games name no ruleset gets one finding, not one per game.

use crate::types::GameId;

/// The value of a tag line `[Name "value"]` (leading blanks allowed) when its name is `name`
/// (any case); escapes are not resolved.
fn tag_value<'a>(line: &'a [u8], name: &str) -> Option<&'a [u8]> {
    let t = trim(line).strip_prefix(b"[")?;
    let t = trim(t);
    let n = name.len();
    if t.len() <= n || !t[..n].eq_ignore_ascii_case(name.as_bytes()) || !t[n].is_ascii_whitespace()
    {
        return None;
    }
    let rest = trim(&t[n..]).strip_prefix(b"\"")?;
    let end = memchr::memchr(b'"', rest)?;
    Some(&rest[..end])
}

fn trim(b: &[u8]) -> &[u8] {
    let start = b
        .iter()
        .position(|c| !c.is_ascii_whitespace())
        .unwrap_or(b.len());
    let end = b
        .iter()
        .rposition(|c| !c.is_ascii_whitespace())
        .map_or(start, |e| e + 1);
    &b[start..end.max(start)]
}

/// True when one game's text names its ruleset by a tag: a `Game` tag (whatever its value:
/// a value arbiter does not know is that game's own finding) or a `Variant` tag whose value
/// is a ruleset. Only the tag lines before the first other line are looked at.
pub fn names_ruleset(game: &[u8]) -> bool {
    let mut rest = game;
    while !rest.is_empty() {
        let line = rest.strip_prefix(super::encoding::BOM).unwrap_or(rest);
        // The first byte that is not white space decides, before the line's end is looked
        // for: a movetext line (the long one) is not walked.
        let first = line
            .iter()
            .position(|c| !c.is_ascii_whitespace() || *c == b'\n');
        let end =
            |from: usize| memchr::memchr(b'\n', &line[from..]).map_or(line.len(), |e| from + e + 1);
        let line = match first.map(|i| (i, line[i])) {
            None => return false,
            Some((i, b'\n')) => {
                rest = &line[i + 1..];
                continue;
            }
            Some((i, b';')) => {
                rest = &line[end(i)..];
                continue;
            }
            Some((i, b'[')) => {
                let (tag_line, next) = line.split_at(end(i));
                rest = next;
                tag_line
            }
            Some(_) => return false,
        };
        // Only a name starting with `g` or `v` can be `Game` or `Variant`: other tags (most
        // of them) are passed over without a trim.
        let after = &line[first.map_or(0, |i| i + 1)..];
        let name = after.iter().find(|c| !c.is_ascii_whitespace());
        if !matches!(name.map(u8::to_ascii_lowercase), Some(b'g' | b'v')) {
            continue;
        }
        let t = trim(line);
        if tag_value(t, "Game").is_some() {
            return true;
        }
        let variant = tag_value(t, "Variant").and_then(|v| std::str::from_utf8(v).ok());
        if variant.and_then(GameId::parse).is_some() {
            return true;
        }
    }
    false
}

/// The ruleset the text of a log shows when its games name none, as far as `head` (the first
/// bytes of the source) reaches: Xiangqi for xqbase PGN and the like (a `Format` tag of
/// ICCS, WXF or Chinese; a 9x10 FEN; Chinese or full-width move text; WXF moves; ICCS moves
/// that write rank 0, which no other ruleset has), Jieqi for a FEN with covered pieces.
pub fn content_game(head: &[u8]) -> Option<GameId> {
    if std::str::from_utf8(head).is_err() {
        // GB18030 text (Chinese records are mostly saved so) is sniffed as decoded, up to its
        // last line end (the head may stop inside a character); bytes that are no GB18030
        // either are sniffed as they are.
        let head = head.strip_prefix(super::encoding::BOM).unwrap_or(head);
        let whole = memchr::memrchr(b'\n', head).map_or(head, |k| &head[..=k]);
        let text = encoding_rs::GB18030.decode_without_bom_handling_and_without_replacement(whole);
        if let Some(text) = text {
            return content_game_utf8(text.as_bytes());
        }
    }
    content_game_utf8(head)
}

/// [`content_game`] of text that is UTF-8 or taken as it is. Lines end at LF, CRLF or a
/// lone CR, as in the log format.
fn content_game_utf8(head: &[u8]) -> Option<GameId> {
    let mut in_comment = false;
    for line in head.split(|&b| b == b'\n' || b == b'\r') {
        if let Some(g) = tag_says(line) {
            return Some(g);
        }
        if trim(line).first() == Some(&b'[') {
            continue;
        }
        for tok in movetext_tokens(line, &mut in_comment) {
            if xiangqi_move(tok) {
                return Some(GameId::Xiangqi);
            }
        }
    }
    None
}

/// What a tag line says about the ruleset: `Format` ICCS/WXF/Chinese, or a Xiangqi or Jieqi
/// FEN.
fn tag_says(line: &[u8]) -> Option<GameId> {
    if let Some(v) = tag_value(line, "Format") {
        let v = trim(v);
        let known = [&b"iccs"[..], b"wxf", b"chinese"];
        return known
            .iter()
            .any(|k| v.eq_ignore_ascii_case(k))
            .then_some(GameId::Xiangqi);
    }
    let board = tag_value(line, "FEN")?.split(|&b| b == b' ').next()?;
    let ranks: Vec<&[u8]> = board.split(|&b| b == b'/').collect();
    let nine = |r: &&[u8]| {
        r.iter()
            .map(|&c| match c {
                b'1'..=b'9' => (c - b'0') as u32,
                c if b"kabnrcpehxKABNRCPEHX".contains(&c) => 1,
                _ => 100,
            })
            .sum::<u32>()
            == 9
    };
    if ranks.len() != 10 || !ranks.iter().all(nine) {
        return None;
    }
    Some(if board.iter().any(|c| matches!(c, b'x' | b'X')) {
        GameId::Jieqi
    } else {
        GameId::Xiangqi
    })
}

/// The white-space separated tokens of a movetext line outside brace comments (a comment
/// open at the end of the line stays open for the next) and before a `;` comment.
fn movetext_tokens<'a>(line: &'a [u8], in_comment: &mut bool) -> Vec<&'a [u8]> {
    let mut out = Vec::new();
    let mut start = None;
    for (i, &c) in line.iter().enumerate() {
        if *in_comment {
            *in_comment = c != b'}';
            continue;
        }
        let delim = c.is_ascii_whitespace() || matches!(c, b'{' | b';' | b'(' | b')');
        if delim {
            if let Some(s) = start.take() {
                out.push(&line[s..i]);
            }
            match c {
                b'{' => *in_comment = true,
                b';' => return out,
                _ => {}
            }
        } else if start.is_none() {
            start = Some(i);
        }
    }
    if let Some(s) = start {
        out.push(&line[s..]);
    }
    out
}

/// Chinese piece and direction characters (simplified and traditional).
const CHINESE: &str = "帅帥将將仕士相象马馬傌车車俥炮砲包兵卒进進退平";

/// True for a move only Xiangqi writes: Chinese notation, full-width WXF, WXF, or an ICCS
/// move with rank 0 (`h0g2`, `H0-G2`).
fn xiangqi_move(tok: &[u8]) -> bool {
    if let Ok(s) = std::str::from_utf8(tok) {
        if s.chars()
            .any(|c| CHINESE.contains(c) || ('\u{FF01}'..='\u{FF5E}').contains(&c))
        {
            return true;
        }
    }
    let piece = |c: u8| b"KAEBHNRCPkaebhnrcp".contains(&c);
    let digit = |c: u8| (b'1'..=b'9').contains(&c);
    let wxf = match tok {
        [p, f, d, n] => {
            (piece(*p) && (digit(*f) || b"+-".contains(f)) || b"+-".contains(p) && piece(*f))
                && b"+-.=".contains(d)
                && digit(*n)
        }
        _ => false,
    };
    let file = |c: u8| (b'a'..=b'i').contains(&c.to_ascii_lowercase());
    let iccs = match tok {
        [f0, r0, f1, r1] | [f0, r0, b'-', f1, r1] => {
            file(*f0)
                && file(*f1)
                && r0.is_ascii_digit()
                && r1.is_ascii_digit()
                && (*r0 == b'0' || *r1 == b'0')
        }
        _ => false,
    };
    wxf || iccs
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_text_shows_xiangqi_with_any_line_end_and_in_gb18030() {
        let lf = b"[Event \"x\"]\n\n1. h2e2 h9g7 2. h0g2 *\n".to_vec();
        let cr: Vec<u8> = lf
            .iter()
            .map(|&b| if b == b'\n' { b'\r' } else { b })
            .collect();
        assert_eq!(content_game(&lf), Some(GameId::Xiangqi));
        assert_eq!(
            content_game(&cr),
            Some(GameId::Xiangqi),
            "lines end at a lone CR"
        );
        // 炮二平五 in GBK, after a byte order mark, the head cut inside a character.
        let gbk = b"\xEF\xBB\xBF[Event \"x\"]\n1. \xc5\xda\xb6\xfe\xc6\xbd\xce\xe5\n2. \xc5";
        assert_eq!(content_game(gbk), Some(GameId::Xiangqi));
        assert_eq!(content_game(b"[Event \"\xe9t\xe9\"]\n1. a4-a5 *\n"), None);
    }

    #[test]
    fn tags_that_name_a_ruleset() {
        assert!(names_ruleset(
            b"[Event \"x\"]\n[Game \"stratego\"]\n1. a4-a5"
        ));
        assert!(names_ruleset(b"[Variant \"Xiangqi\"]\n1. Che2"));
        assert!(!names_ruleset(b"[Game\"x\"]\n"));
        assert!(!names_ruleset(b"[Variant \"jijbent\"]\n1. a3-a4"));
        assert!(!names_ruleset(
            b"[Event \"x\"]\n1. a4-a5 [Game \"stratego\"]"
        ));
        assert!(names_ruleset(b"; a comment\n  [game \"jungle\"]"));
        // A BOM starts a line (after blank lines too), never after white space.
        assert!(names_ruleset(b"\r\n\n\xEF\xBB\xBF[Game \"x\"]"));
        assert!(!names_ruleset(b"  \xEF\xBB\xBF[Game \"x\"]"));
        assert!(!names_ruleset(
            b"[Event \"e\"]\n1. h2e2 [Game \"x\"]\n[Game \"x\"]"
        ));
    }

    #[test]
    fn xqbase_content_is_xiangqi() {
        let x = Some(GameId::Xiangqi);
        assert_eq!(content_game(b"[Event \"x\"]\n\n1. g0e2 b9c7 2. g3g4"), x);
        assert_eq!(content_game(b"1. h2e2 h9g7 2. H0-G2"), x);
        assert_eq!(content_game("1. Ｃ２＝５ Ｈ８＋７".as_bytes()), x);
        assert_eq!(content_game("1. 炮二平五 马８进７".as_bytes()), x);
        assert_eq!(content_game(b"1. C2.5 H8+7"), x);
        assert_eq!(content_game(b"[Format \"WXF\"]\n"), x);
        assert_eq!(
            content_game(
                b"[FEN \"rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w\"]"
            ),
            x
        );
        assert_eq!(
            content_game(
                b"[FEN \"xxxxkxxxx/9/1x5x1/x1x1x1x1x/9/9/X1X1X1X1X/1X5X1/9/XXXXKXXXX w\"]"
            ),
            Some(GameId::Jieqi)
        );
    }

    #[test]
    fn other_logs_show_no_ruleset() {
        assert_eq!(
            content_game(b"setup red\n 4 B4B4323222\n1. a4-a5 j7-j6"),
            None
        );
        assert_eq!(content_game(b"1. a3-a4 g7-g6 2. b2-b3"), None);
        assert_eq!(content_game(b"1. h2e2 {h0g2 in a comment} h9g7"), None);
        assert_eq!(content_game(b"1. a3-a4,b3-b4 c8-c7, d8-d7"), None);
    }
}
