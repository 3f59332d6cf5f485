//! Gravon (StraDoS2) XML records read into [`GameRecord`]s, every span pointing into the XML.
//!
//! Format: `../shared/corpus/stratego-gravon/SOURCE.md`. `<field content>` holds 100
//! characters (index i = file `"ABCDEFGHIK"[i % 10]`, rank `i / 10 + 1`); Red's letters `B`..`M`
//! and Blue's `N`..`Y` stand for Bomb, Spy, Scout, Miner, Sergeant, Lieutenant, Captain, Major,
//! Colonel, General, Marshal, Flag. `<move source target>` squares use file letters `A`..`K`
//! without `J` and `:` for rank 10; a file letter `J` is a known Gravon defect, repaired as `K`
//! with a `record-defect` warning. `<result type winner>` codes follow
//! `../shared/corpus/stratego-gravon-setups/SOURCE.md` (0 unable to move, 1 flag captured,
//! 2 both unable to move, 3 forfeit, 4 tie agreed, 10 both missing, 11-13 clock timed out,
//! 14 opponent missing).

use super::defects::{self, Unlisted};
use super::{
    CoordMove, GameRecord, MoveRecord, PlyExtra, SetupBlock, SetupRow, Span, Spanned, Tag,
};
use crate::finding::{Code, Finding};
use crate::rulebook::Rule;
use compact_str::CompactString;
use quick_xml::events::Event;
use quick_xml::Reader;
use std::borrow::Cow;

const RULE: Rule = Rule::GravonFormat;
const FILES: &[u8; 10] = b"ABCDEFGHIK";
/// Gravon piece letters in native order (Bomb, Spy, Scout, Miner, Sergeant, Lieutenant,
/// Captain, Major, Colonel, General, Marshal, Flag) -> native letters.
const NATIVE: [char; 12] = ['B', 'S', '2', '3', '4', '5', '6', '7', '8', '9', 'X', 'F'];

/// Translates one Gravon field character for the given side (`0` Red, `1` Blue): `Some('.')`
/// for an empty square, the native letter for a piece of that side, `None` otherwise.
pub fn field_letter(c: u8, side: usize) -> Option<char> {
    if c == b'A' {
        return Some('.');
    }
    let base = if side == 0 { b'B' } else { b'N' };
    if (base..base + 12).contains(&c) {
        Some(NATIVE[(c - base) as usize])
    } else {
        None
    }
}

/// The Gravon letter for a native letter of a side (the inverse of [`field_letter`]).
pub fn gravon_letter(native: char, side: usize) -> Option<u8> {
    if native == '.' {
        return Some(b'A');
    }
    let i = NATIVE
        .iter()
        .position(|&n| n == native.to_ascii_uppercase())?;
    Some(if side == 0 { b'B' } else { b'N' } + i as u8)
}

/// Where the games of a Gravon file lie: for each `<game` start tag (outside comments,
/// CDATA and processing instructions), the bytes from it (from its line, when only white
/// space precedes it there; the first game from the start of the file, so that its reader
/// sees the prolog) to just past its `</game>`, or up to the next game, or the end, when
/// anything but white space and `</stratego>` follows its `</game>` (kept in the piece so
/// that its reader reports it). A file without a `<game` is one piece. Linear in the bytes;
/// [`GameScan`] finds the same pieces in a stream.
pub fn game_pieces(bytes: &[u8]) -> Vec<(usize, usize)> {
    let mut scan = GameScan::default();
    let mut starts = Vec::new();
    while let Some(s) = scan.next(bytes, true) {
        starts.push(s);
    }
    if starts.is_empty() {
        return vec![(0, bytes.len())];
    }
    let mut out: Vec<(usize, usize)> = Vec::with_capacity(starts.len());
    for (i, &s) in starts.iter().enumerate() {
        let limit = starts.get(i + 1).copied().unwrap_or(bytes.len());
        let start = match out.last() {
            None => 0,
            Some(&(_, prev_end)) => game_start(bytes, prev_end, s),
        };
        out.push((start, game_end(bytes, s, limit)));
    }
    out
}

/// Where the piece of a game whose `<game` tag is at `s` starts, when the previous piece
/// ended at `prev_end`: at the start of the tag's line if only white space precedes the tag
/// there, else at the tag.
pub fn game_start(bytes: &[u8], prev_end: usize, s: usize) -> usize {
    let line_start =
        memchr::memrchr(b'\n', &bytes[prev_end..s]).map_or(prev_end, |i| prev_end + i + 1);
    if bytes[line_start..s]
        .iter()
        .all(|b| *b == b' ' || *b == b'\t')
    {
        line_start
    } else {
        s
    }
}

/// Where the piece of the game whose `<game` tag is at `s` ends, when the next game (or the
/// end) is at `limit`: just past its `</game>` when only white space and the root's end tag
/// follow; else at `limit`, less a last `</stratego>` (the root's end, which no game's
/// reader has opened).
pub fn game_end(bytes: &[u8], s: usize, limit: usize) -> usize {
    let piece = &bytes[s..limit];
    if let Some(e) = memchr::memmem::find(piece, b"</game>").map(|e| s + e + b"</game>".len()) {
        if only_closing(&bytes[e..limit]) {
            return e;
        }
    }
    let trimmed = piece.trim_ascii_end();
    match trimmed.strip_suffix(b"</stratego>") {
        Some(t) => s + t.len(),
        None => limit,
    }
}

/// Where a native game log appended to a Gravon file starts, when the last game, whose
/// `<game` tag is at `s`, is followed by one: after the root's end tag `</stratego>` (or,
/// without one, the game's `</game>`), nothing but white space, then a tag pair (on the same
/// line too: Gravon files end without a line break) or the native log's first
/// line ([`super::split::native_log_start`]: its opening `;` comments, then a tag pair such
/// as `[Game "barrage"]`, which no Gravon record holds). Such a log is read as native games
/// of their own, never skipped as text of the last game; a tag line inside an XML comment
/// is XML.
pub fn native_tail(bytes: &[u8], s: usize) -> Option<usize> {
    let game_end = s + memchr::memmem::find(&bytes[s..], b"</game>")? + b"</game>".len();
    let end = memchr::memmem::rfind(&bytes[game_end..], b"</stratego>")
        .map_or(game_end, |r| game_end + r + b"</stratego>".len());
    let t = super::split::native_log_after(bytes, end)?;
    bytes[end..t]
        .iter()
        .all(u8::is_ascii_whitespace)
        .then_some(t)
}

/// True when `rest` holds only white space and the root's end tag.
fn only_closing(rest: &[u8]) -> bool {
    let t = rest.trim_ascii();
    t.is_empty() || t == b"</stratego>"
}

/// Finds the `<game` start tags of a Gravon text as it arrives, outside comments, CDATA
/// sections and processing instructions: each byte is looked at once however the text is
/// cut into pieces, so a file is read game by game in memory bounded by its largest game.
#[derive(Debug, Default, Clone)]
pub struct GameScan {
    /// Where to go on in the buffer.
    at: usize,
    /// The end of the comment, CDATA section or processing instruction the scan is in.
    skip: Option<&'static [u8]>,
}

/// Bytes a `<` needs after it to know what it opens (`<![CDATA[`).
const LOOKAHEAD: usize = 9;

impl GameScan {
    /// The offset in `buf` of the next `<game` start tag after the last one found, or `None`
    /// when `buf` holds no more of them (more bytes may hold one, unless `eof`). `buf` is the
    /// same buffer each call, grown at its end or shortened at its front ([`GameScan::shift`]).
    pub fn next(&mut self, buf: &[u8], eof: bool) -> Option<usize> {
        loop {
            if let Some(end) = self.skip {
                match memchr::memmem::find(&buf[self.at.min(buf.len())..], end) {
                    Some(k) => {
                        self.at += k + end.len();
                        self.skip = None;
                    }
                    None => {
                        // Keep the bytes that may begin the end marker.
                        self.at = self.at.max(buf.len().saturating_sub(end.len() - 1));
                        return None;
                    }
                }
            }
            let Some(k) = memchr::memchr(b'<', &buf[self.at.min(buf.len())..]) else {
                self.at = buf.len();
                return None;
            };
            let p = self.at + k;
            let rest = &buf[p..];
            if rest.len() < LOOKAHEAD && !eof {
                self.at = p;
                return None;
            }
            let (open, close): (usize, &'static [u8]) = if rest.starts_with(b"<!--") {
                (4, b"-->")
            } else if rest.starts_with(b"<![CDATA[") {
                (9, b"]]>")
            } else if rest.starts_with(b"<?") {
                (2, b"?>")
            } else {
                self.at = p + 1;
                let is_game = rest.starts_with(b"<game")
                    && rest
                        .get(5)
                        .is_none_or(|c| c.is_ascii_whitespace() || b"/>".contains(c));
                if is_game {
                    return Some(p);
                }
                continue;
            };
            self.at = p + open;
            self.skip = Some(close);
        }
    }

    /// The first `n` bytes of the buffer were dropped.
    pub fn shift(&mut self, n: usize) {
        self.at -= n.min(self.at);
    }
}

/// Reads every `<game>` of a Gravon XML text. `name` is the file name: Gravon marks Duel
/// records only by the prefix `duell-`. Nothing is skipped without a word: an element or text
/// arbiter does not read, and a second `<result>` or `<player>` of one side, is a
/// `record-defect` warning; broken XML a `parse-error` in the game it breaks.
pub fn parse_gravon(text: &str, name: &str) -> Vec<GameRecord> {
    let base_name = name.rsplit(['/', '\\']).next().unwrap_or(name);
    // quick-xml skips a leading BOM and counts its positions after it: read the text after
    // the BOM and shift every position back into `text`.
    let bom = if text.starts_with('\u{feff}') { 3 } else { 0 };
    let mut xml = Reader::from_str(&text[bom..]);
    let mut r = GravonReader {
        text,
        duel: base_name.starts_with("duell"),
        games: Vec::new(),
        current: None,
        ply_expected: 1,
        stray: Vec::new(),
        in_player: false,
        noted: (0, 0, None),
        unlisted: Vec::new(),
    };
    // Bytes read past quick-xml (plain moves): its positions are shifted by them too.
    let mut skipped = 0;
    loop {
        let before = xml.buffer_position() as usize + bom + skipped;
        let ev = xml.read_event();
        let after = xml.buffer_position() as usize + bom + skipped;
        match ev {
            Err(e) => {
                let at = (xml.error_position() as usize + bom + skipped).min(text.len());
                r.broken(format!("broken Gravon XML: {e}"), at, before);
                break;
            }
            Ok(Event::Eof) => break,
            Ok(Event::Start(e)) => {
                r.element(e.name().as_ref(), element_span(text, before, after), false);
                skipped += r.skip_plain_moves(xml.get_mut(), after);
            }
            Ok(Event::Empty(e)) => {
                r.element(e.name().as_ref(), element_span(text, before, after), true);
                skipped += r.skip_plain_moves(xml.get_mut(), after);
            }
            Ok(Event::End(e)) => r.end(e.name().as_ref(), after),
            Ok(Event::Text(_)) | Ok(Event::CData(_)) => r.text_between(before, after),
            Ok(_) => {}
        }
    }
    r.finish()
}

/// The state of [`parse_gravon`] between two XML events.
struct GravonReader<'a> {
    text: &'a str,
    duel: bool,
    games: Vec<GameRecord>,
    current: Option<GameRecord>,
    ply_expected: u64,
    /// Findings about what lies outside any game, for the next game (or the last one).
    stray: Vec<Finding>,
    /// Inside a `<player>` element, whose text is the player's name.
    in_player: bool,
    /// The record defects noted for the game that will have this index: how many, and those
    /// past [`defects::MAX_LISTED`], only counted (never built into the game).
    noted: (usize, usize, Option<Unlisted>),
    /// Each game's counted record defects, by index, for [`defects::fold`].
    unlisted: Vec<(usize, Unlisted)>,
}

impl GravonReader<'_> {
    /// A start tag (or an empty element) `name` at `elem`.
    fn element(&mut self, name: &[u8], elem: Span, empty: bool) {
        let text = self.text;
        match (name, self.current.as_mut()) {
            (b"game", _) => self.open_game(elem),
            (b"stratego", None) => {}
            (b"field", Some(g)) => {
                if let Some(content) = attr(text, elem, "content") {
                    let standard = matches!(
                        g.implied_game.as_deref(),
                        Some("stratego" | "barrage" | "duel")
                    );
                    read_field(g, &content, standard);
                }
            }
            (b"move", Some(g)) => {
                let plain = PlainAttrs::read(text, elem);
                read_move(g, text, elem, plain, &mut self.ply_expected);
            }
            (b"rescue", Some(g)) => g.findings.push(
                Finding::new(
                    Code::RecordDefect,
                    elem,
                    "rescue move of the ultimate lightning variant",
                    RULE,
                )
                .label("not a move of the supported rulesets")
                .help("ultimate lightning records are not judged"),
            ),
            (b"player", Some(g)) => {
                read_player(g, text, elem);
                self.in_player = !empty;
            }
            (b"result", Some(g)) => {
                let first = g.tag("Result").map(|t| t.span);
                read_result(g, text, elem);
                if let Some(first) = first {
                    g.findings.push(second_element("result", elem, first));
                }
            }
            _ => {
                let f = skipped(elem, "an element arbiter does not read", "skipped");
                self.note(f);
            }
        }
    }

    /// Reads the plain `<move .../>` elements ([`PlainAttrs`]), each after white space, at
    /// the front of `rest` (quick-xml's unread input, just past a tag ending at `at`), and
    /// drops them from it; returns the bytes dropped. quick-xml would report each as a
    /// white-space text (which reads nothing) and an empty element, changing nothing in its
    /// state but its position: the findings and spans are the same, the events cheaper.
    fn skip_plain_moves(&mut self, rest: &mut &[u8], at: usize) -> usize {
        let text = self.text;
        let mut read = 0;
        loop {
            let tail = text.as_bytes().get(at + read..).unwrap_or_default();
            let ws = tail
                .iter()
                .take_while(|b| matches!(b, b' ' | b'\t' | b'\r' | b'\n'))
                .count();
            let start = at + read + ws;
            let Some((elem, attrs)) = plain_move(text, start) else {
                break;
            };
            match self.current.as_mut() {
                Some(g) => push_move(g, elem, attrs, &mut self.ply_expected),
                None => self.element(b"move", elem, true),
            }
            read = elem.end - at;
        }
        debug_assert_eq!(rest.len(), text.len() - at);
        *rest = rest.get(read..).unwrap_or_default();
        read
    }

    /// A `<game>` start tag at `elem`: a new record (a game still open is closed first).
    fn open_game(&mut self, elem: Span) {
        if let Some(g) = self.current.take() {
            self.games.push(unclosed(g, elem.start));
        }
        let text = self.text;
        let kind = attr(text, elem, "type")
            .map(|s| s.value)
            .unwrap_or_default();
        let mut g = GameRecord {
            span: Span::new(elem.start, text.len()),
            ..GameRecord::default()
        };
        let implied = match kind.as_str() {
            "classic" | "barrage" if self.duel => "duel".to_string(),
            "classic" => "stratego".to_string(),
            "" if self.duel => "duel".to_string(),
            other => other.to_string(),
        };
        // Duel is told apart only by the file name: without it, `classic` is Stratego unless
        // --game says Duel (a record on standard input).
        g.implied_is_default = kind == "classic" && !self.duel;
        g.implied_game = Some(implied);
        // Gravon played the two-squares rule with 5 (issue #3; rulings §1.4).
        g.format_defaults.push(("TwoSquares", "5"));
        if let Some(t) = attr(text, elem, "type") {
            g.tags
                .push(tag("GravonType", t.value.clone(), t.span, elem));
        }
        g.findings.append(&mut self.stray);
        self.current = Some(g);
        self.ply_expected = 1;
    }

    /// An end tag `name`; `after` is the offset just past it.
    fn end(&mut self, name: &[u8], after: usize) {
        match name {
            b"game" => {
                if let Some(mut g) = self.current.take() {
                    g.span.end = after;
                    self.games.push(g);
                }
            }
            b"player" => self.in_player = false,
            _ => {}
        }
    }

    /// Text or CDATA between `before` and `after`: white space, or a player's name, or a
    /// `record-defect` (nothing else in a Gravon record holds text).
    fn text_between(&mut self, before: usize, after: usize) {
        let t = self.text.get(before..after).unwrap_or_default();
        if self.in_player || t.trim().is_empty() {
            return;
        }
        let lead = t.len() - t.trim_start().len();
        let span = Span::new(before + lead, before + t.trim_end().len());
        self.note(skipped(span, "text arbiter does not read", "skipped"));
    }

    /// A finding about the record: for the game being read, else kept for the next game.
    /// Past [`defects::MAX_LISTED`] record defects a game they are only counted: a file of a
    /// million unknown elements once held a million findings (1.5 GB for 16 MB).
    fn note(&mut self, f: Finding) {
        if f.code == Code::RecordDefect {
            let index = self.games.len();
            if self.noted.0 != index {
                self.flush_noted();
                self.noted = (index, 0, None);
            }
            self.noted.1 += 1;
            if self.noted.1 > defects::MAX_LISTED {
                Unlisted::add(&mut self.noted.2, f.span);
                return;
            }
        }
        match self.current.as_mut() {
            Some(g) => g.findings.push(f),
            None => self.stray.push(f),
        }
    }

    /// Keeps the counted record defects of the game noted last.
    fn flush_noted(&mut self) {
        if let (index, _, Some(u)) = self.noted {
            self.unlisted.push((index, u));
        }
        self.noted.2 = None;
    }

    /// The XML breaks at `at` (`before`: where the event that broke started).
    fn broken(&mut self, message: String, at: usize, before: usize) {
        let len = self.text.len();
        let f = Finding::new(
            Code::ParseError,
            Span::new(at, (at + 1).min(len)),
            message,
            RULE,
        )
        .label("the XML breaks here")
        .help("the file is not well-formed XML; re-download or repair the record");
        let mut g = self.current.take().unwrap_or_else(|| GameRecord {
            span: Span::new(before, len),
            ..GameRecord::default()
        });
        g.findings.append(&mut self.stray);
        g.findings.push(f);
        g.span.end = len;
        self.games.push(g);
    }

    /// The records read, numbered; a game still open is closed with a `parse-error`, and
    /// findings about what follows the last game go to it.
    fn finish(mut self) -> Vec<GameRecord> {
        if let Some(g) = self.current.take() {
            let end = self.text.len();
            self.games.push(unclosed(g, end));
        }
        if let Some(g) = self.games.last_mut() {
            g.findings.append(&mut self.stray);
        }
        for (i, g) in self.games.iter_mut().enumerate() {
            g.index = i;
            g.turns = g.moves.len();
        }
        self.flush_noted();
        let last = self.games.len().saturating_sub(1);
        for (index, u) in std::mem::take(&mut self.unlisted) {
            if let Some(g) = self.games.get_mut(index.min(last)) {
                defects::fold(&mut g.findings, Some(u));
            }
        }
        self.games
    }
}

/// A game whose `<game>` element never closes, ended at `at` with a `parse-error` (unless
/// the XML already broke in it).
fn unclosed(mut g: GameRecord, at: usize) -> GameRecord {
    if !g.findings.iter().any(|f| f.code == Code::ParseError) {
        g.findings.push(
            Finding::new(
                Code::ParseError,
                Span::new(at, at),
                "the <game> element is never closed",
                RULE,
            )
            .label(if at == g.span.end {
                "end of file"
            } else {
                "the next game starts here"
            })
            .help("the record is truncated"),
        );
    }
    g.span.end = at;
    g
}

/// The `record-defect` for a file whose root element `<stratego>` is open at its end, when
/// `last` (the bytes from its last game's `<game` tag to the end, at byte `base` of the
/// source) closes that game but not the root: cut short between two games, the file reads as
/// whole games, and the games it lost would go unnoticed. A game cut short is its reader's
/// `parse-error` already. The finding stands at the last `</game>`.
pub fn cut_short(last: &[u8], base: usize) -> Option<Finding> {
    let (game_end, after) = end_tag(last, b"game")?;
    if end_tag(&last[after..], b"stratego").is_some() {
        return None;
    }
    let span = Span::new(base + game_end, base + after);
    let f = Finding::new(
        Code::RecordDefect,
        span,
        "the file ends before its <stratego> element is closed",
        RULE,
    )
    .label("the file ends after this game")
    .help("a whole Gravon file ends with </stratego>: this one may have been cut short, and games after this one lost; check the copy");
    Some(f)
}

/// The first end tag `</name>` of `bytes` (white space allowed before its `>`): where it
/// starts and where it ends.
fn end_tag(bytes: &[u8], name: &[u8]) -> Option<(usize, usize)> {
    let open = [b"</".as_slice(), name].concat();
    memchr::memmem::find_iter(bytes, &open).find_map(|at| {
        let rest = &bytes[at + open.len()..];
        let ws = rest.len() - rest.trim_ascii_start().len();
        (rest.get(ws) == Some(&b'>')).then_some((at, at + open.len() + ws + 1))
    })
}

/// The `record-defect` for what a Gravon record holds that arbiter does not read.
fn skipped(span: Span, what: &str, label: &str) -> Finding {
    Finding::new(Code::RecordDefect, span, what.to_string(), RULE)
        .label(label.to_string())
        .help("Gravon records hold <game>, <field>, <move>, <player> and <result> elements; this part of the file is not judged")
}

/// The `record-defect` for a second `<name>` element in one game, at `elem`; `first` is the
/// first one.
fn second_element(name: &str, elem: Span, first: Span) -> Finding {
    Finding::new(
        Code::RecordDefect,
        elem,
        format!("a second <{name}> element in one game"),
        RULE,
    )
    .label("this one is used")
    .with_label(first, "the first one")
    .help("a Gravon game holds one; check which is right")
}

/// A `<player id>` start tag at `elem`: its text, up to the next markup, is the name of Red
/// (id 1) or Blue; a second name for one side is a `record-defect`.
fn read_player(g: &mut GameRecord, text: &str, elem: Span) {
    let id = attr(text, elem, "id").map(|a| a.value).unwrap_or_default();
    let rest = text.get(elem.end..).unwrap_or_default();
    let close =
        memchr::memchr(b'<', rest.as_bytes()).filter(|&i| rest[i..].starts_with("</player>"));
    if let Some(close) = close {
        let name = rest[..close].trim().to_string();
        let tname = if id == "1" { "Red" } else { "Blue" };
        let vspan = Span::new(elem.end, elem.end + close);
        if let Some(first) = g.tag(tname).map(|t| t.span) {
            g.findings.push(second_element("player", elem, first));
        }
        g.tags.push(tag(tname, unescape_xml(&name), vspan, vspan));
    }
}

fn tag(name: &str, value: String, vspan: Span, whole: Span) -> Tag {
    Tag {
        name: Spanned::new(name.into(), whole),
        value: Spanned::new(value.into(), vspan),
        span: whole,
    }
}

/// The bytes of the element that ended at `after`, starting at the `<` at or after `before`.
fn element_span(text: &str, before: usize, after: usize) -> Span {
    let start = text
        .get(before..after)
        .and_then(|s| s.find('<'))
        .map_or(before, |i| before + i);
    Span::new(start, after)
}

/// An attribute's value and its span (the characters between the quotes).
fn attr(text: &str, elem: Span, name: &str) -> Option<Spanned<String>> {
    let (raw, span) = attr_raw(text, elem, name)?;
    Some(Spanned::new(unescape_xml(raw), span))
}

/// [`attr`] without unescaping: the value as written, borrowed from `text` (no allocation;
/// a move reads three attributes).
fn attr_raw<'a>(text: &'a str, elem: Span, name: &str) -> Option<(&'a str, Span)> {
    let s = text.get(elem.start..elem.end)?;
    let (b, n) = (s.as_bytes(), name.as_bytes());
    let mut from = 0;
    // The leftmost occurrence of `name` from `from` on: its first byte, then the rest
    // compared (a plain byte scan: an element is a few dozen bytes; the names are ASCII, so
    // every match is a char boundary).
    while let Some(i) = b[from..].iter().position(|&c| c == n[0]) {
        let at = from + i;
        if !b[at..].starts_with(n) {
            from = at + 1;
            continue;
        }
        let ok_before = at == 0 || b[at - 1].is_ascii_whitespace();
        let rest = s[at + name.len()..].trim_start();
        if ok_before && rest.starts_with('=') {
            let after_eq = rest[1..].trim_start();
            let quote = after_eq.chars().next()?;
            if quote != '"' && quote != '\'' {
                return None;
            }
            let vstart_rel = s.len() - after_eq.len() + 1;
            let vend_rel = vstart_rel + b[vstart_rel..].iter().position(|&c| c == quote as u8)?;
            let span = Span::new(elem.start + vstart_rel, elem.start + vend_rel);
            return Some((&s[vstart_rel..vend_rel], span));
        }
        from = at + name.len();
    }
    None
}

/// An attribute or text value of the XML, read: the five predefined entities and numeric
/// character references (`&#233;`, `&#xE9;`); a value with any other entity (or a broken one)
/// is kept as written.
fn unescape_xml(s: &str) -> String {
    if !s.contains('&') {
        return s.to_string();
    }
    quick_xml::escape::unescape(s).map_or_else(|_| s.to_string(), |v| v.into_owned())
}

/// Translates `<field content>` into two setup sections (Red ranks 1-4, Blue 7-10); spans of
/// each row point at its ten characters in the XML.
fn read_field(g: &mut GameRecord, content: &Spanned<String>, standard: bool) {
    let bytes = content.value.as_bytes();
    if bytes.len() != 100 || !content.value.is_ascii() {
        g.findings.push(
            Finding::new(
                Code::SetupInvalid,
                content.span,
                format!(
                    "the Gravon field has {} characters, not 100",
                    content.value.chars().count()
                ),
                RULE,
            )
            .label("expected one character per square of the 10x10 board")
            .help("the record's setup is damaged"),
        );
        return;
    }
    let blocks = [("red", 0..4usize), ("blue", 6..10usize)];
    for (side_i, (word, ranks)) in blocks.into_iter().enumerate() {
        let mut rows = Vec::new();
        for rank in ranks {
            let start = rank * 10;
            let cells: String = bytes[start..start + 10]
                .iter()
                .map(|&c| field_letter(c, side_i).unwrap_or(c as char))
                .collect();
            let span = Span::new(content.span.start + start, content.span.start + start + 10);
            rows.push(SetupRow {
                rank: Spanned::new(rank as u32 + 1, span),
                cells: Spanned::new(cells, span),
            });
        }
        let first = rows.first().map(|r| r.cells.span).unwrap_or(content.span);
        let last = rows.last().map(|r| r.cells.span).unwrap_or(content.span);
        g.setups.push(SetupBlock {
            side: Spanned::new(word.to_string(), first.join(last)),
            rows,
            span: first.join(last),
        });
    }
    // The middle ranks must be empty land and the eight lakes (not so in the unsupported
    // variants, which are reported as such and not judged).
    if !standard {
        return;
    }
    for (i, &c) in bytes[40..60].iter().enumerate() {
        let idx = 40 + i;
        let want_lake = matches!(idx % 10, 2 | 3 | 6 | 7);
        let ok = if want_lake { c == b'_' } else { c == b'A' };
        if !ok {
            let at = content.span.start + idx;
            g.findings.push(
                Finding::new(
                    Code::SetupInvalid,
                    Span::new(at, at + 1),
                    format!(
                        "`{}` on {}{} outside the setup zones",
                        c as char,
                        (FILES[idx % 10] as char).to_ascii_lowercase(),
                        idx / 10 + 1
                    ),
                    RULE,
                )
                .label(if want_lake {
                    "expected a lake (`_`)"
                } else {
                    "expected an empty square (`A`)"
                })
                .help("ranks 5 and 6 hold only the lakes at the start"),
            );
        }
    }
}

/// Reads a Gravon square (`F4`, `A:`), returning (file index, rank) and whether the file
/// letter was the defective `J`.
fn gravon_square(s: &str) -> Option<((u8, u32), bool)> {
    let b = s.as_bytes();
    if b.len() != 2 {
        return None;
    }
    let (file, defect) = match b[0].to_ascii_uppercase() {
        b'J' => (9u8, true),
        f => (FILES.iter().position(|&x| x == f)? as u8, false),
    };
    let rank = match b[1] {
        b'1'..=b'9' => (b[1] - b'0') as u32,
        b':' => 10,
        _ => return None,
    };
    Some(((file, rank), defect))
}

/// `a4-a5`: the move from `from` to `to` (file index, rank) as a log writes it, built in
/// place (short texts live inline: no allocation per move).
fn move_text(from: (u8, u32), to: (u8, u32)) -> CompactString {
    let mut buf = [0u8; 24];
    let mut n = 0;
    for (i, (f, r)) in [from, to].into_iter().enumerate() {
        if i == 1 {
            buf[n] = b'-';
            n += 1;
        }
        buf[n] = b'a' + f;
        n += 1;
        let mut digits = [0u8; 10];
        let (mut rest, mut k) = (r, digits.len());
        loop {
            k -= 1;
            digits[k] = b'0' + (rest % 10) as u8;
            rest /= 10;
            if rest == 0 {
                break;
            }
        }
        buf[n..n + digits.len() - k].copy_from_slice(&digits[k..]);
        n += digits.len() - k;
    }
    CompactString::new(std::str::from_utf8(&buf[..n]).unwrap_or_default())
}

/// The attributes of an element written plainly, as Gravon writes every move:
/// `<move id="1" source="F4" target="F5"/>`, one space before each attribute, names of
/// lower-case letters, values of letters, digits and `:` between double quotes. There
/// [`attr`] finds each name exactly where the attribute is (no value holds white space, an
/// entity or a quote), so one pass reads all of them; `None` for any other writing.
struct PlainAttrs<'a> {
    /// Name, value, and the value's bytes in the text; `n` of them.
    found: [(&'a [u8], &'a str, Span); 4],
    n: usize,
}

impl<'a> PlainAttrs<'a> {
    fn read(text: &'a str, elem: Span) -> Option<Self> {
        let s = text.get(elem.start..elem.end)?;
        let b = s.as_bytes();
        if b.first() != Some(&b'<') {
            return None;
        }
        let word = |i: usize| i + b[i..].iter().take_while(|c| c.is_ascii_lowercase()).count();
        let mut i = word(1);
        let mut out = PlainAttrs {
            found: [(&b[..0], "", Span::default()); 4],
            n: 0,
        };
        loop {
            match &b[i..] {
                b"/>" | b">" => return Some(out),
                [b' ', ..] if out.n < 4 => {}
                _ => return None,
            }
            let end = word(i + 1);
            if end == i + 1 || !b[end..].starts_with(b"=\"") {
                return None;
            }
            let v = end + 2;
            let len = b[v..]
                .iter()
                .take_while(|c| c.is_ascii_alphanumeric() || **c == b':')
                .count();
            if b.get(v + len) != Some(&b'"') {
                return None;
            }
            let span = Span::new(elem.start + v, elem.start + v + len);
            out.found[out.n] = (&b[i + 1..end], &s[v..v + len], span);
            out.n += 1;
            i = v + len + 1;
        }
    }

    /// The attributes a move reads.
    fn move_attrs(&self) -> MoveAttrs<'a> {
        ["id", "source", "target"].map(|name| self.get(name))
    }

    /// The attribute `name` as [`attr`] reads it.
    fn get(&self, name: &str) -> Option<Spanned<Cow<'a, str>>> {
        self.found[..self.n]
            .iter()
            .find(|(n, _, _)| *n == name.as_bytes())
            .map(|&(_, v, span)| Spanned::new(Cow::Borrowed(v), span))
    }
}

/// The move element at `start` when written exactly as Gravon writes it,
/// `<move id="DIGITS" source="XY" target="XY"/>` (squares of two letters, digits or `:`),
/// and its attributes as [`PlainAttrs::read`] reads them, without its general loop.
fn gravon_move(text: &str, start: usize) -> Option<(Span, MoveAttrs<'_>)> {
    let b = text.as_bytes().get(start..)?;
    let head = b"<move id=\"".len();
    if !b.starts_with(b"<move id=\"") {
        return None;
    }
    let digits = b[head..].iter().take_while(|c| c.is_ascii_digit()).count();
    let id = head + digits;
    let square = |i: usize| {
        b.get(i..i + 2)
            .is_some_and(|v| v.iter().all(|c| c.is_ascii_alphanumeric() || *c == b':'))
    };
    let (src, dst) = (id + 10, id + 22);
    let ok = b[id..].starts_with(b"\" source=\"")
        && square(src)
        && b[src + 2..].starts_with(b"\" target=\"")
        && square(dst)
        && b[dst + 2..].starts_with(b"\"/>");
    if !ok {
        return None;
    }
    // Every byte checked is ASCII: each offset is a char boundary.
    let at = |from: usize, to: usize| {
        let span = Span::new(start + from, start + to);
        Some(Spanned::new(
            Cow::Borrowed(&text[span.start..span.end]),
            span,
        ))
    };
    let attrs = [at(head, id), at(src, src + 2), at(dst, dst + 2)];
    Some((Span::new(start, start + dst + 5), attrs))
}

/// The `<move .../>` element at `start` and its attributes, when it is written plainly
/// ([`PlainAttrs`]), ends with `/>` and holds at least one attribute.
fn plain_move(text: &str, start: usize) -> Option<(Span, MoveAttrs<'_>)> {
    let b = text.as_bytes().get(start..)?;
    if !b.starts_with(b"<move ") {
        return None;
    }
    if let Some(found) = gravon_move(text, start) {
        return Some(found);
    }
    let end = start + memchr::memchr(b'>', b)? + 1;
    let elem = Span::new(start, end);
    if b.get(end - start - 2) != Some(&b'/') {
        return None;
    }
    Some((elem, PlainAttrs::read(text, elem)?.move_attrs()))
}

/// [`attr`] borrowing the value from `text` when it holds no entity (every move's squares).
fn attr_cow<'a>(text: &'a str, elem: Span, name: &str) -> Option<Spanned<Cow<'a, str>>> {
    let (raw, span) = attr_raw(text, elem, name)?;
    let value = if raw.contains('&') {
        Cow::Owned(unescape_xml(raw))
    } else {
        Cow::Borrowed(raw)
    };
    Some(Spanned::new(value, span))
}

/// A move's id as `value.trim().parse::<u64>()` reads it, plain digits (every Gravon id)
/// without the general parser.
fn move_id(value: &str) -> Option<u64> {
    let b = value.as_bytes();
    // Up to 19 digits fit in a u64.
    if (1..=19).contains(&b.len()) && b.iter().all(u8::is_ascii_digit) {
        return Some(b.iter().fold(0, |n, c| n * 10 + u64::from(c - b'0')));
    }
    let digits = value.trim().strip_prefix('+').unwrap_or(value.trim());
    match value.trim().parse() {
        // A number too large for a u64 is read as its largest: the ids after it, as large,
        // are then one finding, not one a move.
        Err(_) if !digits.is_empty() && digits.bytes().all(|c| c.is_ascii_digit()) => {
            Some(u64::MAX)
        }
        r => r.ok(),
    }
}

/// A move's `id`, `source` and `target` attributes, as [`attr_cow`] reads them.
type MoveAttrs<'a> = [Option<Spanned<Cow<'a, str>>>; 3];

/// A `<move>` at `elem` (`plain`: its attributes, when written plainly).
fn read_move(
    g: &mut GameRecord,
    text: &str,
    elem: Span,
    plain: Option<PlainAttrs>,
    ply_expected: &mut u64,
) {
    let attrs = match plain {
        Some(p) => p.move_attrs(),
        None => ["id", "source", "target"].map(|name| attr_cow(text, elem, name)),
    };
    push_move(g, elem, attrs, ply_expected);
}

/// The move at `elem` with its attributes `[id, src, dst]`: a `record-defect` for an id
/// that does not count the plies or a `J` file, and the ply, its text written here.
fn push_move(g: &mut GameRecord, elem: Span, [id, src, dst]: MoveAttrs, ply_expected: &mut u64) {
    if let Some(id) = &id {
        let read = move_id(&id.value);
        if read != Some(*ply_expected) {
            g.findings.push(
                Finding::new(
                    Code::RecordDefect,
                    id.span,
                    format!("move id {} where {} was expected", id.value, ply_expected),
                    RULE,
                )
                .label("ids count the plies from 1")
                .help("the moves are taken in file order; later ids are checked on from this one"),
            );
        }
        // One skipped id is one finding: the ids after it are checked from it on.
        *ply_expected = read.unwrap_or(*ply_expected);
    }
    *ply_expected = ply_expected.saturating_add(1);
    let turn = g.moves.len();
    let (coord, text_value) = match (&src, &dst) {
        (Some(s), Some(d)) => match (gravon_square(&s.value), gravon_square(&d.value)) {
            (Some((from, fj)), Some((to, tj))) => {
                for (defect, sp) in [(fj, s), (tj, d)] {
                    if defect {
                        g.findings.push(
                            Finding::new(
                                Code::RecordDefect,
                                sp.span,
                                format!("file letter J in `{}` repaired as K", sp.value),
                                RULE,
                            )
                            .at_ply(turn as u32 + 1)
                            .label("Gravon writes the tenth file as K; J is a known Gravon bug")
                            .help("repaired as K (rhalbersma/gravon repair.py does the same)"),
                        );
                    }
                }
                (
                    Some(CoordMove {
                        from,
                        to,
                        capture_mark: false,
                        from_span: s.span,
                        to_span: d.span,
                    }),
                    move_text(from, to),
                )
            }
            _ => (None, format!("{}-{}", s.value, d.value).into()),
        },
        _ => (None, CompactString::const_new("<move>")),
    };
    let extra = Box::new(PlyExtra::new(None, Some(coord)));
    g.moves
        .push(MoveRecord::new(text_value, elem, elem, turn, Some(extra)));
}

/// Gravon's result: `winner` 1/2/3 gives `1-0`/`0-1`/`1/2-1/2`; `type` gives the
/// termination (board endings by their reason, off-board ones by the log-format words).
fn read_result(g: &mut GameRecord, text: &str, elem: Span) {
    let winner = attr(text, elem, "winner");
    let kind = attr(text, elem, "type");
    if let Some(w) = &winner {
        let result = match w.value.trim() {
            "1" => "1-0",
            "2" => "0-1",
            "3" => "1/2-1/2",
            _ => "*",
        };
        g.tags.push(tag("Result", result.to_string(), w.span, elem));
    }
    if let Some(t) = &kind {
        let term = match t.value.trim() {
            "0" => Some("no-legal-move"),
            "1" => Some("flag-captured"),
            "2" => Some("neither-can-move"),
            "3" | "10" | "14" => Some("forfeit"),
            "4" => Some("agreement"),
            "11" | "12" | "13" => Some("time"),
            _ => None,
        };
        match term {
            Some(term) => g
                .tags
                .push(tag("Termination", term.to_string(), t.span, elem)),
            None => g.findings.push(
                Finding::new(
                    Code::RecordDefect,
                    t.span,
                    format!("unknown Gravon result type {}", t.value),
                    RULE,
                )
                .label("not a documented result code")
                .help("the result is kept; how the game ended is not recorded"),
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Numeric character references are read like the predefined entities (a player `Ren&#233;`
    /// was shown and converted as written); an unknown entity keeps the value as written.
    #[test]
    fn values_read_entities_and_character_references() {
        assert_eq!(
            unescape_xml("Ren&#233; &amp; Ana&#xEF;s &lt;3"),
            "René & Anaïs <3"
        );
        assert_eq!(unescape_xml("a &nbsp; b"), "a &nbsp; b");
        assert_eq!(unescape_xml("plain"), "plain");
    }

    #[test]
    fn squares() {
        assert_eq!(gravon_square("A:"), Some(((0, 10), false)));
        assert_eq!(gravon_square("K7"), Some(((9, 7), false)));
        assert_eq!(gravon_square("J7"), Some(((9, 7), true)));
        assert_eq!(gravon_square("Z7"), None);
        assert_eq!(gravon_square("A0"), None);
    }

    #[test]
    fn letters() {
        assert_eq!(field_letter(b'B', 0), Some('B'));
        assert_eq!(field_letter(b'L', 0), Some('X'));
        assert_eq!(field_letter(b'Y', 1), Some('F'));
        assert_eq!(field_letter(b'Y', 0), None);
        for (i, c) in NATIVE.iter().enumerate() {
            assert_eq!(gravon_letter(*c, 1), Some(b'N' + i as u8));
        }
    }

    #[test]
    fn plain_attributes_read_as_attr_reads_them() {
        let plain = [
            r#"<move id="7" source="F4" target="A:"/>"#,
            r#"<move source="F4" id="" target="J7">"#,
        ];
        let not_plain = [
            r#"<move  id="7" source="F4" target="F5"/>"#,
            r#"<move id="7" source='F4' target="F5"/>"#,
            r#"<move id="7" source="F&amp;4" target="F5"/>"#,
            r#"<move id="7" source="x target=y" target="F5"/>"#,
            r#"<move id="7"/ >"#,
        ];
        for text in plain.iter().chain(&not_plain) {
            let elem = Span::new(0, text.len());
            let p = PlainAttrs::read(text, elem);
            assert_eq!(p.is_some(), plain.contains(text), "{text}");
            for name in ["id", "source", "target", "type"] {
                if let Some(p) = &p {
                    assert_eq!(p.get(name), attr_cow(text, elem, name), "{text} {name}");
                }
            }
        }
    }

    #[test]
    fn gravon_moves_read_as_plain_attributes_read_them() {
        let exact = [
            r#"<move id="7" source="F4" target="A:"/>"#,
            r#"<move id="" source="j7" target="K7"/>"#,
        ];
        let other = [
            r#"<move id="7" source="F4" target="A:">"#,
            r#"<move id="7a" source="F4" target="F5"/>"#,
            r#"<move id="7" source="F44" target="F5"/>"#,
            r#"<move id="7" target="F4" source="F5"/>"#,
            r#"<move id="7" source="F4" target="F"/>"#,
            r#"<move id="7" source="F4" target="F5"#,
        ];
        for text in exact.iter().chain(&other) {
            let quick = gravon_move(text, 0);
            assert_eq!(quick.is_some(), exact.contains(text), "{text}");
            if let Some((elem, q)) = quick {
                assert_eq!(elem, Span::new(0, text.len()));
                let p = PlainAttrs::read(text, elem).expect("plain");
                assert_eq!(q, p.move_attrs(), "{text}");
            }
        }
    }

    #[test]
    fn move_ids_read_as_parse_reads_them() {
        for v in [
            "7",
            "007",
            "",
            " 7 ",
            "+7",
            "-7",
            "7a",
            "9999999999999999999",
            "18446744073709551615",
        ] {
            assert_eq!(move_id(v), v.trim().parse::<u64>().ok(), "{v}");
        }
        assert_eq!(move_id("++99999999999999999999"), None);
        for v in [
            "18446744073709551616",
            "99999999999999999999",
            " +123456789012345678901 ",
        ] {
            assert_eq!(move_id(v), Some(u64::MAX), "{v}");
        }
    }

    /// 150 unknown elements in a game: the first 100 listed, the other 50 counted in one
    /// finding at the 101st, labelled at the last (pipeline's fold leaves it as it is).
    #[test]
    fn unknown_elements_past_the_first_hundred_are_counted() {
        let text = format!(
            "<stratego><game type=\"classic\">{}</game></stratego>",
            "<f/>".repeat(150)
        );
        let mut g = parse_gravon(&text, "x.xml").remove(0);
        defects::fold(&mut g.findings, None);
        assert_eq!(g.findings.len(), 101);
        let last = &g.findings[100];
        assert_eq!(
            last.message,
            "50 more record defects in this game (only the first 100 are listed)"
        );
        let at = |k: usize| text.find("<f/>").unwrap() + 4 * k;
        assert_eq!(last.span.start, at(100));
        assert_eq!(last.labels[0].span.start, at(149));
    }

    /// One skipped move id is one finding: the ids after it are checked from it on.
    #[test]
    fn one_skipped_move_id_is_one_finding() {
        let moves: String = [1, 3, 4, 5]
            .iter()
            .map(|id| format!("<move id=\"{id}\" source=\"A4\" target=\"A5\"/>"))
            .collect();
        let g = parse_gravon(
            &format!("<stratego><game type=\"classic\">{moves}</game></stratego>"),
            "x.xml",
        );
        let found: Vec<&str> = g[0].findings.iter().map(|f| f.message.as_str()).collect();
        assert_eq!(found, ["move id 3 where 2 was expected"]);
    }

    #[test]
    fn broken_xml_is_a_parse_error() {
        let g = parse_gravon(
            "<stratego><game type=\"classic\"><move id=\"1\" source=",
            "x.xml",
        );
        assert_eq!(g.len(), 1);
        assert!(g[0].unreadable());
    }
}
