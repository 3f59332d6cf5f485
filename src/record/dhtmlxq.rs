//! DhtmlXQ, the bracket-tag record format of the dpxq.com (东萍象棋网) web viewer, in which
//! wxf.ca, xqinenglish and dpxq publish their games, read into a [`GameRecord`] whose every
//! span is a byte range of the file.
//!
//! Format (no formal specification; `../shared/corpus/xiangqi-dhtmlxq/SOURCE.md`, and the
//! vschess reader `dataToNode_DhtmlXQ`):
//!
//! - A record is a block `[DhtmlXQ]...[/DhtmlXQ]` (or `[DhtmlXQiFrame]`, `[DhtmlXQHTML]`),
//!   one or many a file, anywhere in a web page: what lies around the blocks is not read
//!   ([`blocks`]). A file of bare `[DhtmlXQ_...]` elements is one record.
//! - Inside, elements `[DhtmlXQ_name]value[/DhtmlXQ_name]`: `movelist` (the main line, four
//!   digits a move: column 0-8 from Red's left, row 0-9 from **Black's** back rank, from-point
//!   then to-point: `7747` is h2e2), `move_B_I_N` (variation `N`: in place of ply `I` of line
//!   `B`, counted from the game's start; `B` 0 is the main line), `binit` (the start
//!   position: 32 pieces RNBAKABNRCCPPPPP then rnbakabnrccppppp, two digits each, `99` or any
//!   other point off the board for a captured piece), `fen` (a start FEN, before `binit`),
//!   `commentI` and `commentN_I` (after ply `I` of the main line or of line `N`; `||` is a
//!   line break), `result`, and texts (`title`, `event`, `red`, `black`, ...).
//! - The side to move is not stored: it is the colour of the piece on the first move's
//!   from-point (Red without moves).
//! - Text is UTF-8 when the block is (a BOM allowed), else GB18030 (GB2312 and GBK are its
//!   subsets), decoded with encoding_rs.
//!
//! What the record holds: `implied_game` `xiangqi`; the texts as tags under their PGN names
//! (`Title`, `Event`, `Date`, `Site`, `Round`, `Red`, `Black`, `RedTeam`, `BlackTeam`, ...),
//! every other element as a tag `DhtmlXQ_<name>` with its value as written; `Result` from
//! `红胜`/`W` (1-0), `黑胜`/`L` (0-1), `和棋`/`D` (1/2-1/2), `未知` or nothing (`*`); `FEN`
//! from `fen` or `binit`. Moves are ICCS text written here with [`PlyExtra::imported_coord`]
//! pointing at the digits; variations are numbered by their `N` when the record numbers
//! them 1, 2, ... with every line after the one it branches off (as dpxq writes them), else in
//! the order they can be placed.
//!
//! Damage is a located finding, never a panic: `parse-error` for a start position that
//! cannot be read (the game is not judged); `record-defect` for what is repaired or left out
//! (an element not closed, a variation whose line or ply does not exist, a comment placed
//! where no ply is, an unknown result word, undecodable text). A move group that is not four
//! digits of points on the board is kept as written (`#` and the characters) with a
//! `record-defect`, and the replay stops there with a `parse-error`. Time and memory are
//! linear in the block.

use super::{Comment, CoordMove, GameRecord, MoveRecord, PlyExtra, Span, Spanned, Tag, Variation};
use crate::finding::{Code, Finding};
use crate::rulebook::Rule;
use std::collections::HashMap;

const RULE: Rule = Rule::DhtmlXqFormat;

/// What every DhtmlXQ element and block starts with.
pub const MARK: &[u8] = b"[DhtmlXQ";

/// The block wrappers: opening and closing tags.
const WRAPPERS: [(&[u8], &[u8]); 3] = [
    (b"[DhtmlXQ]", b"[/DhtmlXQ]"),
    (b"[DhtmlXQiFrame]", b"[/DhtmlXQiFrame]"),
    (b"[DhtmlXQHTML]", b"[/DhtmlXQHTML]"),
];

/// Element names read under a PGN tag name.
const TAG_NAMES: [(&str, &str); 16] = [
    ("title", "Title"),
    ("event", "Event"),
    ("date", "Date"),
    ("place", "Site"),
    ("round", "Round"),
    ("group", "Group"),
    ("table", "Table"),
    ("red", "Red"),
    ("black", "Black"),
    ("redteam", "RedTeam"),
    ("blackteam", "BlackTeam"),
    ("redelo", "RedElo"),
    ("blackelo", "BlackElo"),
    ("redtime", "RedTime"),
    ("blacktime", "BlackTime"),
    ("open", "Opening"),
];

/// Piece letters (xqbase FEN) of the 32 `binit` points, Red's then Black's.
const PIECES: &[u8; 32] = b"RNBAKABNRCCPPPPPrnbakabnrccppppp";

/// True when `bytes` hold a DhtmlXQ record: a closing tag `[/DhtmlXQ` (of a block or an
/// element: a record, not a mention of one) and the text `[DhtmlXQ`; unless the text is
/// markup (a web page, whose first character is `<`), that text must stand outside the
/// native log's comments (`{...}`, `;` to the end of the line), and no line may open with a
/// native tag pair `[Name "value"]`. A native log that mentions or quotes DhtmlXQ, or holds
/// a block after its games, is read as a native log: each of its games is judged, and a
/// block among them is a parse error, never a silent loss. How DhtmlXQ is known by its
/// content. Linear.
pub fn looks_like_dhtmlxq(bytes: &[u8]) -> bool {
    let body = bytes.strip_prefix(super::encoding::BOM).unwrap_or(bytes);
    if memchr::memmem::find(body, b"[/DhtmlXQ").is_none() {
        return false;
    }
    if body.trim_ascii_start().starts_with(b"<") {
        return true;
    }
    if body
        .split(|&b| b == b'\n' || b == b'\r')
        .any(|line| super::split::tag_len(line.trim_ascii_start()).is_some())
    {
        return false;
    }
    mark_outside_comments(body)
}

/// True when `[DhtmlXQ` stands in `text` outside a native log's `{...}` and `;` comments.
fn mark_outside_comments(text: &[u8]) -> bool {
    let (mut i, mut brace, mut line) = (0, false, false);
    while let Some(k) = memchr::memchr3(b'{', b';', b'[', &text[i..]).map(|k| i + k) {
        // What lies between i and k may end a comment.
        let between = &text[i..k];
        if line && memchr::memchr2(b'\n', b'\r', between).is_some() {
            line = false;
        }
        if brace && memchr::memchr(b'}', between).is_some() {
            brace = false;
        }
        match text[k] {
            b'{' if !line => brace = true,
            b';' if !brace => line = true,
            b'[' if !brace && !line && text[k..].starts_with(MARK) => return true,
            _ => {}
        }
        i = k + 1;
    }
    false
}

/// The byte ranges of the records of a file: each block from its opening to its closing
/// tag (to the next block or the end when it is not closed); a file with elements but no
/// block is one record, from its first element on. Linear in the file.
pub fn blocks(bytes: &[u8]) -> Vec<(usize, usize)> {
    let Some(first) = memchr::memmem::find(bytes, MARK) else {
        return Vec::new();
    };
    let mut opens: Vec<Next> = WRAPPERS.iter().map(|(o, _)| Next::new(bytes, o)).collect();
    let mut closes: Vec<Next> = WRAPPERS.iter().map(|(_, c)| Next::new(bytes, c)).collect();
    let next_open = |opens: &mut Vec<Next>, from: usize| {
        opens.iter_mut().filter_map(|o| o.at_or_after(from)).min()
    };
    if next_open(&mut opens, 0).is_none() {
        return vec![(first, bytes.len())]; // bare elements: one record
    }
    let mut out = Vec::new();
    let mut at = 0;
    while let Some(i) = next_open(&mut opens, at) {
        let w = WRAPPERS
            .iter()
            .position(|(o, _)| bytes[i..].starts_with(o))
            .unwrap_or(0);
        let open_end = i + WRAPPERS[w].0.len();
        let after = next_open(&mut opens, open_end);
        let end = match closes[w].at_or_after(open_end) {
            // Closed before the next block opens (a closing tag past it belongs to that one).
            Some(c) if after.is_none_or(|a| c < a) => c + WRAPPERS[w].1.len(),
            _ => after.unwrap_or(bytes.len()),
        };
        out.push((i, end));
        at = end;
    }
    out
}

/// The first place of a needle at or after a position that only grows: each search starts
/// where the last one could not answer, so all of them together read the text once.
struct Next<'a> {
    hay: &'a [u8],
    needle: &'a [u8],
    /// The last answer: `Some(None)` when there is none from some earlier position on.
    found: Option<Option<usize>>,
}

impl<'a> Next<'a> {
    fn new(hay: &'a [u8], needle: &'a [u8]) -> Self {
        Next {
            hay,
            needle,
            found: None,
        }
    }

    fn at_or_after(&mut self, from: usize) -> Option<usize> {
        match self.found {
            Some(None) => return None,
            Some(Some(p)) if p >= from => return Some(p),
            _ => {}
        }
        let from = from.min(self.hay.len());
        let p = memchr::memmem::find(&self.hay[from..], self.needle).map(|i| from + i);
        self.found = Some(p);
        p
    }
}

/// One element `[DhtmlXQ_name]value[/DhtmlXQ_name]` of a block (offsets in the block).
#[derive(Debug, Clone)]
struct Element {
    /// The name after `DhtmlXQ_`.
    name: (usize, usize),
    /// The opening tag.
    open: Span,
    /// The value's bytes.
    value: (usize, usize),
    /// The whole element, closing tag included.
    whole: Span,
    /// False when no closing tag follows (the value runs to the next element).
    closed: bool,
}

/// The elements of `block`, in order. A value ends at the first closing tag or the next
/// element, whichever comes first (an element that a following one interrupts is not
/// closed). Linear in the block.
fn elements(block: &[u8]) -> Vec<Element> {
    const OPEN: &[u8] = b"[DhtmlXQ_";
    let mut opens = Next::new(block, MARK);
    // Any closing tag: an element's, or the block's (which ends an element not closed).
    let mut closes = Next::new(block, b"[/DhtmlXQ");
    let mut out = Vec::new();
    let mut at = 0;
    while let Some(i) = memchr::memmem::find(&block[at..], OPEN).map(|i| at + i) {
        let name_start = i + OPEN.len();
        let name_len = block[name_start..]
            .iter()
            .take(64)
            .take_while(|b| b.is_ascii_alphanumeric() || **b == b'_')
            .count();
        let name_end = name_start + name_len;
        if name_len == 0 || block.get(name_end) != Some(&b']') {
            at = name_start;
            continue;
        }
        let value_start = name_end + 1;
        let next = opens.at_or_after(value_start).unwrap_or(block.len());
        let (value_end, end, closed) = match closes.at_or_after(value_start) {
            Some(c) if c < next && block[c..].starts_with(b"[/DhtmlXQ_") => {
                let close_end = memchr::memchr(b']', &block[c..next]).map_or(next, |e| c + e + 1);
                (c, close_end, true)
            }
            Some(c) if c < next => (c, c, false),
            _ => (next, next, false),
        };
        out.push(Element {
            name: (name_start, name_end),
            open: Span::new(i, value_start),
            value: (value_start, value_end),
            whole: Span::new(i, end),
            closed,
        });
        at = end.max(value_start);
    }
    out
}

/// A variation as listed: `move_B_I_N` and its moves.
struct Listed {
    parent: u64,
    ply: u64,
    id: u64,
    element: Element,
}

/// Reads the DhtmlXQ record `block` (a piece of a file returned by [`blocks`]; spans are
/// offsets in the block, [`GameRecord::shift_spans`] moves them into the file); `index` is
/// its number in the file. Always returns a record: what could not be read is a finding
/// with its span.
pub fn read_dhtmlxq(block: &[u8], index: usize) -> GameRecord {
    let mut r = Reader {
        block,
        utf8: std::str::from_utf8(block).is_ok(),
        rec: GameRecord {
            index,
            span: Span::new(0, block.len()),
            implied_game: Some("xiangqi".into()),
            ..GameRecord::default()
        },
        lines: HashMap::new(),
    };
    r.wrapper();
    let mut listed = Vec::new();
    let mut comments = Vec::new();
    let (mut binit, mut fen) = (None, None);
    for e in elements(block) {
        if !e.closed {
            r.defect(
                e.open,
                format!("the element `{}` is not closed", r.name(&e)),
                "no closing tag follows",
                "read up to the next element",
            );
        }
        let name = r.name(&e).to_ascii_lowercase();
        match name.as_str() {
            "movelist" => r.main_line(&e),
            "binit" => binit = Some(e),
            "fen" => fen = Some(e),
            "result" => r.result(&e),
            n if n.starts_with("move_") => r.listed(n, e, &mut listed),
            n if n.starts_with("comment") => comments.push(e),
            _ => r.text_tag(&name, &e),
        }
    }
    r.variations(listed);
    for e in comments {
        r.comment(&e);
    }
    r.start_position(binit.as_ref(), fen.as_ref());
    r.rec.turns = r.rec.moves.len();
    r.rec
}

/// The record being built from a block's bytes.
struct Reader<'a> {
    block: &'a [u8],
    /// The block is UTF-8 (else its texts are GB18030).
    utf8: bool,
    rec: GameRecord,
    /// DhtmlXQ's variation number -> the record's line.
    lines: HashMap<u64, usize>,
}

impl Reader<'_> {
    fn finding(&mut self, code: Code, span: Span, message: String, label: &str, help: &str) {
        self.rec.findings.push(
            Finding::new(code, span, message, RULE)
                .label(label)
                .help(help),
        );
    }

    fn defect(&mut self, span: Span, message: String, label: &str, help: &str) {
        self.finding(Code::RecordDefect, span, message, label, help);
    }

    fn name(&self, e: &Element) -> String {
        String::from_utf8_lossy(&self.block[e.name.0..e.name.1]).into_owned()
    }

    /// The text of `range`, decoded (UTF-8, else GB18030); `what` names it in a finding.
    fn text(&mut self, (start, end): (usize, usize), what: &str) -> String {
        let raw = &self.block[start..end];
        if self.utf8 {
            return String::from_utf8_lossy(raw).into_owned();
        }
        super::xqf::decode(raw, start, what, &mut self.rec.findings)
    }

    /// A block not closed by its wrapper's closing tag.
    fn wrapper(&mut self) {
        let b = self.block;
        if let Some((open, close)) = WRAPPERS.iter().find(|(o, _)| b.starts_with(o)) {
            if !b.ends_with(close) {
                let what = String::from_utf8_lossy(open).into_owned();
                self.defect(
                    Span::new(0, open.len()),
                    format!("the block {what} is not closed"),
                    "no closing tag before the next block or the end",
                    "read up to the next block or the end of the file",
                );
            }
        }
    }

    fn tag(&mut self, name: &str, value: String, e: &Element) {
        let value_span = Span::new(e.value.0, e.value.1);
        self.rec.tags.push(Tag {
            name: Spanned::new(name.into(), e.open),
            value: Spanned::new(value.into(), value_span),
            span: e.whole,
        });
    }

    /// A text element as a tag: its PGN name when it has one, else `DhtmlXQ_<name>`.
    fn text_tag(&mut self, name: &str, e: &Element) {
        let tag = match TAG_NAMES.iter().find(|(n, _)| *n == name) {
            Some((_, pgn)) => pgn.to_string(),
            None => format!("DhtmlXQ_{}", self.name(e)),
        };
        let value = self.text(e.value, &tag);
        self.tag(&tag, value, e);
    }

    /// `[DhtmlXQ_result]` as a `Result` tag.
    fn result(&mut self, e: &Element) {
        let word = self.text(e.value, "result");
        let value = match word.trim() {
            "红胜" | "紅勝" | "W" | "1-0" => "1-0",
            "黑胜" | "黑勝" | "L" | "0-1" => "0-1",
            "和棋" | "和局" | "D" | "1/2-1/2" => "1/2-1/2",
            "未知" | "" | "*" => "*",
            _ => {
                self.defect(
                    Span::new(e.value.0, e.value.1),
                    format!("the result `{}` is not a DhtmlXQ result", crate::finding::excerpt(&word)),
                    "known: 红胜 or W (Red wins), 黑胜 or L (Black wins), 和棋 or D (draw), 未知 (unknown)",
                    "the result is left unrecorded; the text is kept as the tag DhtmlXQ_result",
                );
                self.tag("DhtmlXQ_result", word, e);
                return;
            }
        };
        self.tag("Result", value.to_string(), e);
    }
}

impl Reader<'_> {
    /// The moves of a digit list: four digits a move, white space between them skipped.
    fn moves(&mut self, e: &Element, line: usize, first_ply: u32) -> Vec<MoveRecord> {
        let (start, end) = e.value;
        let mut out = Vec::with_capacity((end - start) / 4);
        let mut group: Vec<usize> = Vec::with_capacity(4);
        let mut i = start;
        while i <= end {
            if i < end && self.block[i].is_ascii_whitespace() {
                i += 1;
                continue;
            }
            if i < end {
                group.push(i);
            }
            if group.len() == 4 || (i == end && !group.is_empty()) {
                let ply = first_ply + out.len() as u32;
                out.push(self.one_move(&group, line, ply));
                group.clear();
            }
            i += 1;
        }
        out
    }

    /// The move of the characters at `at` (four when whole): ply `ply` of line `line`.
    fn one_move(&mut self, at: &[usize], line: usize, ply: u32) -> MoveRecord {
        let span = Span::new(at[0], at[at.len() - 1] + 1);
        let digit = |k: usize| at.get(k).map(|&i| self.block[i].wrapping_sub(b'0'));
        let point = |x: Option<u8>, y: Option<u8>| match (x, y) {
            (Some(x @ 0..=8), Some(y @ 0..=9)) => Some((x, 9 - y as u32)),
            _ => None,
        };
        let (from, to) = (point(digit(0), digit(1)), point(digit(2), digit(3)));
        let (text, coord) = match (from, to) {
            (Some(f), Some(t)) => {
                let b = [b'a' + f.0, b'0' + f.1 as u8, b'a' + t.0, b'0' + t.1 as u8];
                let coord = CoordMove {
                    from: f,
                    to: t,
                    capture_mark: false,
                    from_span: Span::new(at[0], at[1] + 1),
                    to_span: Span::new(at[2], at[3] + 1),
                };
                let text: compact_str::CompactString =
                    std::str::from_utf8(&b).unwrap_or_default().into();
                (text, Some(coord))
            }
            _ => (self.bad_move(at, span, line, ply), None),
        };
        let extra = Box::new(PlyExtra::new(None, Some(coord)));
        MoveRecord::new(text, span, span, ply as usize - 1, Some(extra))
    }

    /// The text kept for a group that is no move (`#` and its characters, anything but a
    /// letter or digit as `?`), with its `record-defect`.
    fn bad_move(
        &mut self,
        at: &[usize],
        span: Span,
        line: usize,
        ply: u32,
    ) -> compact_str::CompactString {
        let mut text = compact_str::CompactString::new("#");
        for &i in at {
            let c = self.block[i];
            text.push(if c.is_ascii_alphanumeric() {
                c as char
            } else {
                '?'
            });
        }
        let f = Finding::new(
            Code::RecordDefect,
            span,
            format!("`{text}` is not a DhtmlXQ move"),
            RULE,
        )
        .at_ply(ply)
        .on_line(line)
        .label("expected four digits: column 0-8 and row 0-9 of the from- and to-point")
        .help("the move is kept as written and cannot be played: the line stops there");
        self.rec.findings.push(f);
        text
    }

    fn main_line(&mut self, e: &Element) {
        if !self.rec.moves.is_empty() {
            self.defect(
                e.open,
                "a second move list".into(),
                "the record has a move list already",
                "the first is read; this one is left out",
            );
            return;
        }
        self.rec.moves = self.moves(e, 0, 1);
    }
}

impl Reader<'_> {
    /// A `move_B_I_N` element, listed for [`Reader::variations`].
    fn listed(&mut self, name: &str, e: Element, out: &mut Vec<Listed>) {
        let ids: Vec<Option<u64>> = name["move_".len()..]
            .split('_')
            .map(|n| n.parse().ok())
            .collect();
        match ids.as_slice() {
            &[Some(parent), Some(ply), Some(id)] if ply >= 1 && id >= 1 => out.push(Listed {
                parent,
                ply,
                id,
                element: e,
            }),
            _ => self.defect(
                e.open,
                format!("`{name}` is no variation name"),
                "expected move_B_I_N: line B, ply I, variation N (N and I from 1)",
                "the variation is left out",
            ),
        }
    }

    /// Places the listed variations, parents first: in the order of their numbers, each as
    /// soon as the line it branches off is placed (linear: a variation waits on its parent).
    fn variations(&mut self, mut listed: Vec<Listed>) {
        listed.sort_by_key(|l| l.id);
        let mut waiting: HashMap<u64, Vec<usize>> = HashMap::new();
        let mut placed = vec![false; listed.len()];
        let mut ready: Vec<usize> = Vec::new();
        for (k, l) in listed.iter().enumerate() {
            if l.parent == 0 {
                ready.push(k);
            } else {
                waiting.entry(l.parent).or_default().push(k);
            }
        }
        // Ready variations in number order: a min-heap on their index.
        let mut heap: std::collections::BinaryHeap<std::cmp::Reverse<usize>> =
            ready.into_iter().map(std::cmp::Reverse).collect();
        while let Some(std::cmp::Reverse(k)) = heap.pop() {
            placed[k] = true;
            if self.place(&listed[k]) {
                for c in waiting.remove(&listed[k].id).unwrap_or_default() {
                    heap.push(std::cmp::Reverse(c));
                }
            }
        }
        for (l, _) in listed.iter().zip(&placed).filter(|(_, p)| !**p) {
            self.defect(
                l.element.open,
                format!(
                    "variation {} branches off line {}, which the record does not hold",
                    l.id, l.parent
                ),
                "no such line",
                "the variation is left out",
            );
        }
    }

    /// Places one variation; false when it cannot be (its ply is not on its parent line, or
    /// its number is taken).
    fn place(&mut self, l: &Listed) -> bool {
        let parent = if l.parent == 0 {
            Some(0)
        } else {
            self.lines.get(&l.parent).copied()
        };
        let Some(parent) = parent else { return false };
        let (start, len) = self.line_extent(parent);
        // vschess: ply I of a line is the ply after one of its own positions (the main
        // line's start position included, a variation's first position not: its parent's).
        let first = if parent == 0 { 1 } else { start as u64 + 2 };
        let last = start as u64 + len as u64 + 1;
        let fail = if self.lines.contains_key(&l.id) {
            Some(format!("variation number {} is used twice", l.id))
        } else if !(first..=last).contains(&l.ply) {
            Some(format!(
                "variation {} branches off line {} at ply {}, which that line does not reach (plies {first} to {last})",
                l.id, l.parent, l.ply
            ))
        } else {
            None
        };
        if let Some(message) = fail {
            self.defect(
                l.element.open,
                message,
                "not placed",
                "the variation is left out",
            );
            return false;
        }
        let line = self.rec.variations.len() + 1;
        let start = l.ply as u32 - 1;
        let moves = self.moves(&l.element, line, start + 1);
        if moves.is_empty() {
            let message = format!("variation {} holds no move", l.id);
            self.defect(
                l.element.open,
                message,
                "empty",
                "the variation is left out",
            );
            return false;
        }
        self.rec.variations.push(Variation {
            parent,
            start,
            moves,
            span: l.element.whole,
        });
        self.lines.insert(l.id, line);
        true
    }

    /// Plies before line `line`'s first move, and its own moves.
    fn line_extent(&self, line: usize) -> (u32, usize) {
        match line {
            0 => (0, self.rec.moves.len()),
            n => {
                let v = &self.rec.variations[n - 1];
                (v.start, v.moves.len())
            }
        }
    }
}

impl Reader<'_> {
    /// A `commentI` (main line) or `commentN_I` (line N) element: the comment after ply I.
    fn comment(&mut self, e: &Element) {
        let name = self.name(e);
        let ids: Vec<Option<u64>> = name["comment".len()..]
            .split('_')
            .map(|n| n.parse().ok())
            .collect();
        let (id, ply) = match *ids.as_slice() {
            [Some(ply)] => (0, ply),
            [Some(id), Some(ply)] => (id, ply),
            _ => {
                let value = self.text(e.value, "comment");
                self.defect(
                    e.open,
                    format!("`{name}` is no comment name"),
                    "expected commentI or commentN_I",
                    "kept as a tag",
                );
                self.tag(&format!("DhtmlXQ_{name}"), value, e);
                return;
            }
        };
        let line = if id == 0 {
            Some(0)
        } else {
            self.lines.get(&id).copied()
        };
        let text = self.text(e.value, "comment").replace("||", "\n");
        let (line, after) = match line {
            Some(line) => {
                let (start, len) = self.line_extent(line);
                let lowest: usize = if line == 0 { 0 } else { 1 };
                let after = ply.saturating_sub(start as u64);
                if (lowest as u64..=len as u64).contains(&after) {
                    (line, after as usize)
                } else {
                    self.misplaced(e, format!("line {line} has no ply {ply}"));
                    (line, after.max(lowest as u64).min(len as u64) as usize)
                }
            }
            None => {
                self.misplaced(e, format!("the record has no variation {id}"));
                (0, 0)
            }
        };
        self.rec.comments.push(Comment {
            text,
            span: e.whole,
            line,
            after,
            line_comment: false,
        });
    }

    fn misplaced(&mut self, e: &Element, why: String) {
        self.defect(
            e.open,
            format!("a comment for a ply that is not in the record: {why}"),
            "no such ply",
            "the comment is kept at the nearest place of its line (or before the first move)",
        );
    }
}

impl Reader<'_> {
    /// The `FEN` tag: the `fen` element as written, else the `binit` position (Black to move
    /// when the first move starts on a Black piece), else none (the standard start).
    fn start_position(&mut self, binit: Option<&Element>, fen: Option<&Element>) {
        if let Some(e) = fen {
            let value = self.text(e.value, "FEN");
            if !value.trim().is_empty() {
                self.tag("FEN", value.trim().to_string(), e);
                return;
            }
        }
        let Some(e) = binit else { return };
        let Some(board) = self.board(e) else { return };
        let first = self.rec.moves.first().and_then(|m| m.coord());
        let black = first.is_some_and(|c| {
            board[c.from.0 as usize * 10 + c.from.1 as usize].is_ascii_lowercase()
        });
        let fen = super::xqf::board_fen(&board, black);
        self.tag("FEN", fen, e);
    }

    /// The `binit` position (`board[file * 10 + rank]`, ICCS), or `None` with the
    /// `parse-error` that makes the game unjudged.
    fn board(&mut self, e: &Element) -> Option<[u8; 90]> {
        let digits: Vec<usize> = (e.value.0..e.value.1)
            .filter(|&i| !self.block[i].is_ascii_whitespace())
            .collect();
        let span = Span::new(e.value.0, e.value.1);
        if digits.len() != 64 || digits.iter().any(|&i| !self.block[i].is_ascii_digit()) {
            self.finding(
                Code::ParseError,
                span,
                format!(
                    "the start position `{}` is not 64 digits",
                    crate::finding::excerpt(&String::from_utf8_lossy(
                        &self.block[e.value.0..e.value.1]
                    ))
                ),
                "expected 32 points of two digits, column then row (99 for a captured piece)",
                "the game cannot start: correct the binit element",
            );
            return None;
        }
        let mut board = [0u8; 90];
        for (k, pair) in digits.chunks(2).enumerate() {
            let (x, y) = (self.block[pair[0]] - b'0', self.block[pair[1]] - b'0');
            if x > 8 {
                continue; // off the board: captured
            }
            let at = x as usize * 10 + (9 - y) as usize;
            if board[at] != 0 {
                let name = super::xqf::square_name(at as u8);
                self.finding(
                    Code::ParseError,
                    Span::new(pair[0], pair[1] + 1),
                    format!(
                        "two pieces on {name}: `{}` where `{}` stands",
                        PIECES[k] as char, board[at] as char
                    ),
                    "a second piece on an occupied point",
                    "the start position is damaged; the game cannot start",
                );
                return None;
            }
            board[at] = PIECES[k];
        }
        Some(board)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The record of the one block of `file`, its spans in the file.
    fn read(file: &[u8]) -> GameRecord {
        let b = blocks(file);
        assert_eq!(
            b.len(),
            1,
            "one block in {:?}",
            String::from_utf8_lossy(file)
        );
        let (start, end) = b[0];
        let mut rec = read_dhtmlxq(&file[start..end], 0);
        rec.shift_spans(start);
        rec
    }

    fn texts(moves: &[MoveRecord]) -> String {
        let t: Vec<&str> = moves.iter().map(|m| m.text()).collect();
        t.join(" ")
    }

    fn found(rec: &GameRecord) -> Vec<(Code, String)> {
        rec.findings
            .iter()
            .map(|f| (f.code, f.message.clone()))
            .collect()
    }

    fn at(file: &[u8], span: Span) -> &str {
        std::str::from_utf8(&file[span.start..span.end]).unwrap()
    }

    #[test]
    fn a_web_page_gives_its_record_with_tags_result_and_moves() {
        let file = b"<html><h3>x</h3><div id=\"d\" style=\"display:none;\">[DhtmlXQ]\
[DhtmlXQ_title]A (W) B[/DhtmlXQ_title][DhtmlXQ_red]A[/DhtmlXQ_red][DhtmlXQ_black]B[/DhtmlXQ_black]\
[DhtmlXQ_redteam]NL[/DhtmlXQ_redteam][DhtmlXQ_result]W[/DhtmlXQ_result]\
[DhtmlXQ_movelist]77477062[/DhtmlXQ_movelist][/DhtmlXQ]</div><iframe></iframe></html>";
        assert!(looks_like_dhtmlxq(file));
        let rec = read(file);
        let tags: Vec<(&str, &str)> = rec
            .tags
            .iter()
            .map(|t| (t.name.value.as_str(), t.value.value.as_str()))
            .collect();
        assert_eq!(
            tags,
            [
                ("Title", "A (W) B"),
                ("Red", "A"),
                ("Black", "B"),
                ("RedTeam", "NL"),
                ("Result", "1-0")
            ]
        );
        // 7747: column 7, row 7 from Black's side = h2; to column 4 = e2.
        assert_eq!(texts(&rec.moves), "h2e2 h9g7");
        assert_eq!(at(file, rec.moves[0].span()), "7747");
        let c = rec.moves[1].coord().unwrap();
        assert_eq!((at(file, c.from_span), at(file, c.to_span)), ("70", "62"));
        assert_eq!(at(file, rec.tags[4].value.span), "W");
        assert!(rec.findings.is_empty(), "{:?}", rec.findings);
        assert!(rec.tag("FEN").is_none(), "the standard start");
        assert_eq!(rec.implied_game.as_deref(), Some("xiangqi"));
    }

    #[test]
    fn variations_are_placed_parents_first_whatever_their_order() {
        // Variation 7 hangs on variation 5 (at its second ply, ply 3) and is listed first.
        let file = b"[DhtmlXQ][DhtmlXQ_movelist]774770627967[/DhtmlXQ_movelist]\
[DhtmlXQ_move_5_3_7]1927[/DhtmlXQ_move_5_3_7]\
[DhtmlXQ_move_0_2_5]10227967[/DhtmlXQ_move_0_2_5]\
[DhtmlXQ_comment0]start[/DhtmlXQ_comment0][DhtmlXQ_comment1]one||two[/DhtmlXQ_comment1]\
[DhtmlXQ_comment5_2]on five[/DhtmlXQ_comment5_2][/DhtmlXQ]";
        let rec = read(file);
        assert!(rec.findings.is_empty(), "{:?}", rec.findings);
        assert_eq!(texts(&rec.moves), "h2e2 h9g7 h0g2");
        let got: Vec<(usize, u32, String)> = rec
            .variations
            .iter()
            .map(|v| (v.parent, v.start, texts(&v.moves)))
            .collect();
        // Variation 5 replaces ply 2 (h9g7) with b9c7, then h0g2; variation 7 replaces its
        // ply 3 (h0g2) with b0c2.
        assert_eq!(
            got,
            [(0, 1, "b9c7 h0g2".to_string()), (1, 2, "b0c2".to_string())]
        );
        let lines: Vec<String> = rec
            .line_plies(2)
            .iter()
            .map(|m| m.text().to_string())
            .collect();
        assert_eq!(lines, ["h2e2", "b9c7", "b0c2"]);
        assert_eq!(
            rec.line_plies(2)[2].turn,
            2,
            "turns count from the game's start"
        );
        let comments: Vec<(&str, usize, usize)> = rec
            .comments
            .iter()
            .map(|c| (c.text.as_str(), c.line, c.after))
            .collect();
        assert_eq!(
            comments,
            [("start", 0, 0), ("one\ntwo", 0, 1), ("on five", 1, 1)]
        );
    }

    #[test]
    fn binit_gives_the_start_and_the_first_move_the_side() {
        // Red: King e0 (column 4, row 9), Chariot a0; Black: King e9 (4, 0), Horse h9 (7, 0);
        // every other piece off the board (99). Black moves first: h9g7.
        let mut pieces = ["99"; 32];
        pieces[0] = "09"; // R
        pieces[4] = "49"; // K
        pieces[20] = "40"; // k
        pieces[23] = "70"; // n
        let binit = pieces.concat();
        let file = format!(
            "[DhtmlXQ][DhtmlXQ_binit]{binit}[/DhtmlXQ_binit][DhtmlXQ_movelist]7062[/DhtmlXQ_movelist][/DhtmlXQ]"
        );
        let rec = read(file.as_bytes());
        assert!(rec.findings.is_empty(), "{:?}", rec.findings);
        assert_eq!(
            rec.tag_value("FEN"),
            Some("4k2n1/9/9/9/9/9/9/9/9/R3K4 b - - 0 1")
        );
        assert_eq!(
            at(file.as_bytes(), rec.tag("FEN").unwrap().value.span),
            binit
        );
    }

    #[test]
    fn gbk_text_is_decoded_and_utf8_is_read_as_it_is() {
        // 中国 and 红胜 in GBK.
        let mut file = b"[DhtmlXQ][DhtmlXQ_event]".to_vec();
        file.extend([0xD6, 0xD0, 0xB9, 0xFA]);
        file.extend(b"[/DhtmlXQ_event][DhtmlXQ_result]");
        file.extend([0xBA, 0xEC, 0xCA, 0xA4]);
        file.extend(b"[/DhtmlXQ_result][/DhtmlXQ]");
        let rec = read(&file);
        assert_eq!(rec.tag_value("Event"), Some("中国"));
        assert_eq!(rec.tag_value("Result"), Some("1-0"));
        let utf8 = "\u{feff}[DhtmlXQiFrame][DhtmlXQ_result]黑胜[/DhtmlXQ_result][DhtmlXQ_remark]东方[/DhtmlXQ_remark][/DhtmlXQiFrame]";
        let rec = read(utf8.as_bytes());
        assert_eq!(rec.tag_value("Result"), Some("0-1"));
        assert_eq!(rec.tag_value("DhtmlXQ_remark"), Some("东方"));
        assert!(rec.findings.is_empty(), "{:?}", rec.findings);
    }

    #[test]
    fn damage_is_located_and_what_can_be_kept_is_kept() {
        let file = b"[DhtmlXQ][DhtmlXQ_movelist]774770a2796[/DhtmlXQ_movelist]\
[DhtmlXQ_move_0_9_1]1022[/DhtmlXQ_move_0_9_1][DhtmlXQ_move_x_1_2]1022[/DhtmlXQ_move_x_1_2]\
[DhtmlXQ_move_4_1_3]1022[/DhtmlXQ_move_4_1_3][DhtmlXQ_result]maybe[/DhtmlXQ_result]\
[DhtmlXQ_comment0_7]late[/DhtmlXQ_comment0_7][DhtmlXQ_red]open";
        let rec = read(file);
        // The moves: h2e2, then `70a2` (no point), then `796` cut short.
        assert_eq!(texts(&rec.moves), "h2e2 #70a2 #796");
        assert_eq!(rec.moves[1].coord(), None);
        let mut got = found(&rec);
        got.sort();
        let want = [
            (Code::RecordDefect, "`#70a2` is not a DhtmlXQ move".to_string()),
            (Code::RecordDefect, "`#796` is not a DhtmlXQ move".to_string()),
            (Code::RecordDefect, "`move_x_1_2` is no variation name".to_string()),
            (Code::RecordDefect, "a comment for a ply that is not in the record: line 0 has no ply 7".to_string()),
            (Code::RecordDefect, "the block [DhtmlXQ] is not closed".to_string()),
            (Code::RecordDefect, "the element `red` is not closed".to_string()),
            (Code::RecordDefect, "the result `maybe` is not a DhtmlXQ result".to_string()),
            (Code::RecordDefect, "variation 1 branches off line 0 at ply 9, which that line does not reach (plies 1 to 4)".to_string()),
            (Code::RecordDefect, "variation 3 branches off line 4, which the record does not hold".to_string()),
        ];
        let mut want = want.to_vec();
        want.sort();
        assert_eq!(got, want);
        assert!(
            !rec.unreadable(),
            "nothing here keeps the main line from being judged"
        );
        assert_eq!(
            rec.findings
                .iter()
                .find(|f| f.message.contains("#70a2"))
                .unwrap()
                .ply,
            Some(2)
        );
        assert_eq!(rec.tag_value("Red"), Some("open"));
        assert_eq!(rec.comments[0].after, 3, "kept at the end of its line");
        assert_eq!(rec.tag_value("DhtmlXQ_result"), Some("maybe"));
        assert!(rec.tag("Result").is_none());
        for s in rec.spans() {
            assert!(s.start <= s.end && s.end <= file.len(), "{s:?}");
        }
    }

    #[test]
    fn a_start_position_that_cannot_be_read_keeps_the_game_from_being_judged() {
        let file = b"[DhtmlXQ][DhtmlXQ_binit]0919[/DhtmlXQ_binit][/DhtmlXQ]";
        let rec = read(file);
        assert!(rec.unreadable());
        assert_eq!(
            found(&rec)[0].1,
            "the start position `0919` is not 64 digits"
        );
        let two = format!(
            "[DhtmlXQ][DhtmlXQ_binit]4949{}[/DhtmlXQ_binit][/DhtmlXQ]",
            "99".repeat(30)
        );
        let rec = read(two.as_bytes());
        assert_eq!(found(&rec)[0].1, "two pieces on e0: `N` where `R` stands");
    }

    #[test]
    fn many_blocks_and_native_logs_are_told_apart() {
        let two = b"a [DhtmlXQ][DhtmlXQ_movelist]7747[/DhtmlXQ_movelist][/DhtmlXQ] b \
[DhtmlXQ][DhtmlXQ_movelist]7062[/DhtmlXQ_movelist][/DhtmlXQ] c";
        let b = blocks(two);
        assert_eq!(b.len(), 2);
        assert!(two[b[0].0..b[0].1].starts_with(b"[DhtmlXQ]"));
        assert!(two[b[1].0..b[1].1].ends_with(b"[/DhtmlXQ]"));
        let bare = b"[DhtmlXQ_movelist]7747[/DhtmlXQ_movelist]";
        assert_eq!(blocks(bare), [(0, bare.len())]);
        assert!(!looks_like_dhtmlxq(
            b"[Game \"xiangqi\"]\n{ [DhtmlXQ] } 1. h2e2 *"
        ));
        assert!(!looks_like_dhtmlxq(b"1. h2e2 h9g7 *"));
        assert!(looks_like_dhtmlxq(b"\xEF\xBB\xBF\n[DhtmlXQ][/DhtmlXQ]"));
        // Mentions, not records: in a brace comment, after moves on a line.
        assert!(!looks_like_dhtmlxq(
            b"1. h2e2 {as the [DhtmlXQ] viewer shows} *"
        ));
        assert!(!looks_like_dhtmlxq(b"1. h2e2 ; from a [DhtmlXQ] page\n*"));
        // A whole record quoted in a comment is a quote.
        let quote = b"[DhtmlXQ][DhtmlXQ_movelist]7747[/DhtmlXQ_movelist][/DhtmlXQ]";
        for (open, close) in [("; ", "\n"), ("{", "}"), ("{\n", "\n}")] {
            let log = [
                b"1. h2e2 h9g7 ".as_slice(),
                open.as_bytes(),
                quote,
                close.as_bytes(),
                b" 2. a0a5 *",
            ]
            .concat();
            assert!(
                !looks_like_dhtmlxq(&log),
                "{}",
                String::from_utf8_lossy(&log)
            );
        }
        // A web page may show a PGN tag pair on a line of its own.
        assert!(looks_like_dhtmlxq(
            b"<html><pre>\n[Event \"x\"]\n</pre>[DhtmlXQ][/DhtmlXQ]</html>"
        ));
        // A native log that mentions DhtmlXQ in a comment, or holds a block after a game.
        assert!(!looks_like_dhtmlxq(
            b"; converted from a [DhtmlXQ] record\n[Game \"barrage\"]\n1. a4-a5 *"
        ));
        assert!(!looks_like_dhtmlxq(b"; from [DhtmlXQ]\n1. h2e2 h9g7 *"));
        assert!(!looks_like_dhtmlxq(
            b"{c}\n[Game \"xiangqi\"]\n1. h2e2 *\n[DhtmlXQ][DhtmlXQ_movelist]7747[/DhtmlXQ_movelist][/DhtmlXQ]"
        ));
        assert!(looks_like_dhtmlxq(
            b"<div style=\"display:none;\">[DhtmlXQ][/DhtmlXQ]</div>"
        ));
    }

    #[test]
    fn an_element_ends_where_the_next_begins_when_it_is_not_closed() {
        let file = b"[DhtmlXQ][DhtmlXQ_title]x[DhtmlXQ_movelist]7747[/DhtmlXQ_movelist][DhtmlXQ_red]A[/DhtmlXQ]";
        let rec = read(file);
        assert_eq!(rec.tag_value("Title"), Some("x"));
        assert_eq!(
            rec.tag_value("Red"),
            Some("A"),
            "the block's closing tag ends it"
        );
        assert_eq!(texts(&rec.moves), "h2e2");
        let mut got = found(&rec);
        got.sort();
        assert_eq!(
            got,
            [
                (
                    Code::RecordDefect,
                    "the element `red` is not closed".to_string()
                ),
                (
                    Code::RecordDefect,
                    "the element `title` is not closed".to_string()
                ),
            ]
        );
        // A block not closed ends where the next one opens; that one's closing tag is its own.
        let two = b"[DhtmlXQ]a[DhtmlXQiFrame]b[/DhtmlXQiFrame][DhtmlXQ]c[/DhtmlXQ]";
        assert_eq!(blocks(two), [(0, 10), (10, 42), (42, 62)]);
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(256))]
        /// Pieces of DhtmlXQ in any order and with any bytes between them never panic, and
        /// every span lies inside the block.
        #[test]
        fn any_mix_of_pieces_reads_without_panic(parts in prop::collection::vec(
            prop_oneof![
                Just(b"[DhtmlXQ]".to_vec()), Just(b"[/DhtmlXQ]".to_vec()),
                Just(b"[DhtmlXQ_movelist]".to_vec()), Just(b"[/DhtmlXQ_movelist]".to_vec()),
                Just(b"[DhtmlXQ_move_0_2_1]".to_vec()), Just(b"[DhtmlXQ_move_1_3_2]".to_vec()),
                Just(b"[/DhtmlXQ_move_".to_vec()), Just(b"[DhtmlXQ_comment1_3]".to_vec()),
                Just(b"[DhtmlXQ_binit]".to_vec()), Just(b"[DhtmlXQ_result]".to_vec()),
                Just(b"7747706279671022".to_vec()), Just(b"99".to_vec()),
                prop::collection::vec(any::<u8>(), 0..12),
            ], 0..40)) {
            let file: Vec<u8> = parts.concat();
            for (start, end) in blocks(&file) {
                prop_assert!(start <= end && end <= file.len());
                let rec = read_dhtmlxq(&file[start..end], 0);
                for s in rec.spans() {
                    prop_assert!(s.start <= s.end && s.end <= end - start, "{:?}", s);
                }
                for v in &rec.variations {
                    prop_assert!(v.parent < rec.variations.len() + 1);
                }
            }
        }
    }
}
