//! XQF, the binary record format of XQStudio (象棋演播室), read into a [`GameRecord`] whose every
//! span is a byte range of the file (there is no text to excerpt).
//!
//! Format: `../shared/corpus/xiangqi-xqf/SOURCE.md`, XQStudio's author's `XQF.TXT` (xqbase/eleeye
//! `XQFTOOLS/`) for 1.0, the key schedule of the xqbase converter (`xqf2pgn.cpp`) and of
//! walker8088/cchess for the scrambled versions.
//!
//! - Header, bytes 0x000-0x3FF: `XQ`, the version byte (10 = 1.0; 11-18 = 1.1-1.8), 13 key
//!   bytes, at 0x10 the 32 piece squares (Red's R N B A K A B N R C C P P P P P, then Black's;
//!   square = file * 10 + rank, file 0-8 from Red's left, rank 0-9 from Red's side, 0xFF
//!   captured), the result at 0x33 (0 unknown, 1 Red wins, 2 Black wins, 3 draw), the record
//!   type at 0x40 (0 full game, 1 opening, 2 middle game, 3 endgame: unreliable, never used
//!   here), then length-prefixed GB2312/GB18030 texts ([`TEXTS`]).
//! - Move tree from 0x400, in pre-order: the root record (the start position, possibly with a
//!   game comment), then 4-byte move records: from + 24, to + 32, flags, a reserved byte. A
//!   record's continuation (the next move of its line) follows it; its alternative (another
//!   move from the same position) follows the continuation's whole subtree. Version 10: flags'
//!   high nibble = a continuation follows, low nibble = an alternative follows, and every record
//!   is followed by a 4-byte little-endian comment length and the comment. Versions 11+: 0x80
//!   continuation, 0x40 alternative, 0x20 a comment length (less [`Keys::comment`]) and comment
//!   follow; the other five flag bits and the reserved byte are noise.
//! - Scrambling (versions 11+): every byte from 0x400 on is stored plus the key stream
//!   ([`Keys::stream`], restarting at 0x400); squares are stored plus their keys; from
//!   version 12 the 32 piece bytes are also rotated by the piece key. An unscrambled piece
//!   square of 90 or more is a captured piece (XQStudio stores noise for them).
//!
//! What the record holds: `implied_game` `xiangqi`; tags `XqfVersion`, `XqfType`, the texts
//! (`Title`, `Event`, `Date`, `Site`, `Red`, `Black`, `TimeRule`, `RedTime`, `BlackTime`,
//! `Annotator`, `Author`), `Result` and `FEN` (always from the stored piece squares; the side to
//! move is the colour of the piece on the first move's from-square, Red without moves). Moves
//! are ICCS text written here (`h2e2`) with [`PlyExtra::imported_coord`] pointing at the
//! from- and to-bytes; the main line is [`GameRecord::moves`], the other lines
//! [`GameRecord::variations`] (parents first), comments [`GameRecord::comments`].
//!
//! Damage is a located finding, never a panic: `parse-error` for a file that is no XQF, a cut
//! header or move tree (the moves before the cut are kept), a comment length past the end, a
//! square number out of range or two pieces on one square; `record-defect` for what is
//! repaired (a text cut inside a character, a length byte past its field, bytes after the
//! tree, an unknown version or result byte). Time and memory are linear in the file.

use super::{Comment, CoordMove, GameRecord, MoveRecord, PlyExtra, Span, Spanned, Tag, Variation};
use crate::finding::{Code, Finding};
use crate::rulebook::Rule;
use encoding_rs::{DecoderResult, GB18030};

const RULE: Rule = Rule::XqfFormat;

/// Length of the header in bytes; the move tree starts here.
pub const HEADER_LEN: usize = 0x400;

/// The first two bytes of every XQF file.
pub const MAGIC: &[u8; 2] = b"XQ";

/// The key stream's base text (xqf2pgn.cpp, cchess): ANDed with the four key bytes.
const STREAM_MASK: &[u8; 32] = b"[(C) Copyright Mr. Dong Shiwei.]";

/// The header's texts: (offset of the length byte, field size with that byte, tag name).
pub const TEXTS: [(usize, usize, &str); 11] = [
    (0x50, 64, "Title"),
    (0xD0, 64, "Event"),
    (0x110, 16, "Date"),
    (0x120, 16, "Site"),
    (0x130, 16, "Red"),
    (0x140, 16, "Black"),
    (0x150, 64, "TimeRule"),
    (0x190, 16, "RedTime"),
    (0x1A0, 16, "BlackTime"),
    (0x1D0, 16, "Annotator"),
    (0x1E0, 16, "Author"),
];

/// Piece letters (xqbase FEN) of the 32 stored squares, Red's then Black's.
const PIECES: &[u8; 32] = b"RNBAKABNRCCPPPPPrnbakabnrccppppp";

/// True when `bytes` start like an XQF file: [`MAGIC`], then (when present) a version byte
/// below 0x20, a control byte no text holds there. This is how XQF is known by its content.
pub fn looks_like_xqf(bytes: &[u8]) -> bool {
    bytes.starts_with(MAGIC) && bytes.get(2).is_none_or(|&v| v < 0x20)
}

/// The keys of a scrambled file (all zero for version 10, which is stored plain).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Keys {
    /// Added to every piece square; from version 12 also the rotation of the 32 piece bytes.
    pub piece: u8,
    /// Added to every move's from-square (after its +24).
    pub from: u8,
    /// Added to every move's to-square (after its +32).
    pub to: u8,
    /// Added to every comment length.
    pub comment: u32,
    /// Added to the bytes from 0x400 on, byte `0x400 + i` getting `stream[i % 32]`.
    pub stream: [u8; 32],
}

impl Keys {
    /// The key schedule from header bytes 0-15 (xqf2pgn.cpp; cchess `__init_decrypt_key`):
    /// byte 3 the mask, 8-11 four OR-bytes, 12 the key sum, 13-15 the piece, from and to keys.
    pub fn schedule(header: &[u8; 16]) -> Keys {
        let square = |k: u8| 54 * (k as u32) * (k as u32) + 221;
        let [mask, a, b, c, d, sum, xy, xyf, xyt] = [
            header[3], header[8], header[9], header[10], header[11], header[12], header[13],
            header[14], header[15],
        ];
        let piece = (square(xy) * xy as u32) as u8;
        let from = (square(xyf) * piece as u32) as u8;
        let to = (square(xyt) * from as u32) as u8;
        let or = [
            (sum & mask) | a,
            (xy & mask) | b,
            (xyf & mask) | c,
            (xyt & mask) | d,
        ];
        let mut stream = [0u8; 32];
        for (i, s) in stream.iter_mut().enumerate() {
            *s = STREAM_MASK[i] & or[i % 4];
        }
        Keys {
            piece,
            from,
            to,
            comment: (sum as u32 * 256 + xy as u32) % 32000 + 767,
            stream,
        }
    }
}

/// Reads one XQF file (`index`: the record's number in its source, for
/// [`GameRecord::index`]). Always returns a record: what could not be read is a finding in
/// [`GameRecord::findings`] with its byte span, and what came before it is kept.
pub fn read_xqf(bytes: &[u8], index: usize) -> GameRecord {
    let mut r = Reader {
        bytes,
        rec: GameRecord {
            index,
            span: Span::new(0, bytes.len()),
            implied_game: Some("xiangqi".into()),
            ..GameRecord::default()
        },
    };
    let Some(version) = r.version() else {
        return r.rec;
    };
    let plain = version <= 10;
    let keys = match bytes.get(..16) {
        Some(h) if !plain => Keys::schedule(h.try_into().unwrap_or(&[0; 16])),
        _ => Keys::default(),
    };
    if bytes.len() < HEADER_LEN {
        r.error(
            Span::new(bytes.len(), bytes.len()),
            format!("the file ends at byte {} inside the 1024-byte XQF header", bytes.len()),
            "end of file",
            "the file is truncated: what the header holds before this point is kept, there are no moves",
        );
    }
    r.texts();
    r.result();
    let board = r.pieces(version, keys);
    if bytes.len() >= HEADER_LEN {
        let body: Vec<u8> = bytes[HEADER_LEN..]
            .iter()
            .enumerate()
            .map(|(i, &b)| b.wrapping_sub(keys.stream[i % 32]))
            .collect();
        let mut cursor = Cursor {
            body: &body,
            pos: 0,
            plain,
            keys,
        };
        r.tree(&mut cursor);
    }
    if let Some(board) = board {
        r.fen(&board);
    }
    r.rec.turns = r.rec.moves.len();
    r.rec
}

/// The record being built from the file's bytes.
struct Reader<'a> {
    bytes: &'a [u8],
    rec: GameRecord,
}

/// One move record of the tree as stored (squares unscrambled, less their +24 and +32).
struct Node {
    /// File offset of its 4 bytes.
    at: usize,
    from: u8,
    to: u8,
    /// A continuation follows.
    next: bool,
    /// An alternative follows (after the continuation's subtree).
    alt: bool,
    /// The comment's text bytes (offsets in the unscrambled body).
    comment: Option<(usize, usize)>,
}

/// Where the tree could not be read on: the bytes and what is wrong there.
struct Cut {
    span: Span,
    what: String,
}

/// Reads move records from the unscrambled bytes after the header.
struct Cursor<'b> {
    body: &'b [u8],
    /// Offset in `body` of the next record.
    pos: usize,
    /// Version 10: comment lengths after every record, nibble flags.
    plain: bool,
    keys: Keys,
}

impl Cursor<'_> {
    fn file_span(&self, start: usize, end: usize) -> Span {
        Span::new(HEADER_LEN + start, HEADER_LEN + end)
    }

    /// The next record and its comment.
    fn node(&mut self) -> Result<Node, Cut> {
        let at = self.pos;
        let Some(&[from, to, flags, _]) = self.body.get(at..at + 4) else {
            return Err(Cut {
                span: self.file_span(at, self.body.len()),
                what: if at == self.body.len() {
                    "the file ends where a move record should follow".into()
                } else {
                    "the file ends inside a move record".into()
                },
            });
        };
        self.pos += 4;
        let (next, alt, with_comment) = if self.plain {
            (flags & 0xF0 != 0, flags & 0x0F != 0, true)
        } else {
            (flags & 0x80 != 0, flags & 0x40 != 0, flags & 0x20 != 0)
        };
        let comment = if with_comment { self.comment()? } else { None };
        Ok(Node {
            at: HEADER_LEN + at,
            from: from.wrapping_sub(24).wrapping_sub(self.keys.from),
            to: to.wrapping_sub(32).wrapping_sub(self.keys.to),
            next,
            alt,
            comment,
        })
    }

    /// A comment length and the comment's bytes (`None` for length 0).
    fn comment(&mut self) -> Result<Option<(usize, usize)>, Cut> {
        let at = self.pos;
        let Some(&[a, b, c, d]) = self.body.get(at..at + 4) else {
            return Err(Cut {
                span: self.file_span(at, self.body.len()),
                what: "the file ends inside a comment length".into(),
            });
        };
        self.pos += 4;
        let len = u32::from_le_bytes([a, b, c, d]).wrapping_sub(self.keys.comment) as usize;
        let left = self.body.len() - self.pos;
        if len > left {
            return Err(Cut {
                span: self.file_span(at, at + 4),
                what: format!("a comment length of {len} bytes runs past the end of the file ({left} bytes left)"),
            });
        }
        self.pos += len;
        Ok((len > 0).then_some((at + 4, at + 4 + len)))
    }
}

impl Reader<'_> {
    fn error(&mut self, span: Span, message: String, label: &str, help: &str) {
        self.rec.findings.push(
            Finding::new(Code::ParseError, span, message, RULE)
                .label(label)
                .help(help),
        );
    }

    fn defect(&mut self, span: Span, message: String, label: &str, help: &str) {
        self.rec.findings.push(
            Finding::new(Code::RecordDefect, span, message, RULE)
                .label(label)
                .help(help),
        );
    }

    fn tag(&mut self, name: &str, value: String, value_span: Span, whole: Span) {
        self.rec.tags.push(Tag {
            name: Spanned::new(name.into(), whole),
            value: Spanned::new(value.into(), value_span),
            span: whole,
        });
    }

    /// Checks the magic and reads the version byte (tag `XqfVersion`); `None` when the file
    /// is no XQF.
    fn version(&mut self) -> Option<u8> {
        let bytes = self.bytes;
        if !bytes.starts_with(MAGIC) {
            self.error(
                Span::new(0, bytes.len().min(2)),
                "not an XQF file: it does not start with `XQ`".into(),
                "expected the bytes `XQ`",
                "XQF files (XQStudio) start with XQ and a version byte",
            );
            return None;
        }
        let Some(&version) = bytes.get(2) else {
            self.error(
                Span::new(2, 2),
                "the file ends before the XQF version byte".into(),
                "end of file",
                "the file is truncated",
            );
            return None;
        };
        let span = Span::new(2, 3);
        if !(10..=18).contains(&version) {
            let like = if version < 10 { "1.0" } else { "1.8" };
            self.defect(
                span,
                format!("XQF version byte {version} is not a known version"),
                "known: 10 (XQF 1.0) to 18 (XQF 1.8)",
                &format!("read as XQF {like}; check the moves against the original program"),
            );
        }
        self.tag(
            "XqfVersion",
            format!("{}.{}", version / 10, version % 10),
            span,
            span,
        );
        Some(version)
    }

    /// The length-prefixed texts of the header, each a tag when not empty.
    fn texts(&mut self) {
        for (at, size, name) in TEXTS {
            let Some(&len) = self.bytes.get(at) else {
                return;
            };
            let field = Span::new(at, (at + size).min(self.bytes.len()));
            let mut len = len as usize;
            if len > size - 1 {
                self.defect(
                    Span::new(at, at + 1),
                    format!(
                        "the {name} text's length byte says {len} bytes, its field holds {}",
                        size - 1
                    ),
                    "length past the field",
                    &format!("read as the field's {} bytes", size - 1),
                );
                len = size - 1;
            }
            let end = (at + 1 + len).min(self.bytes.len());
            if end <= at + 1 {
                continue;
            }
            let value = Span::new(at + 1, end);
            let text = decode(
                &self.bytes[at + 1..end],
                at + 1,
                name,
                &mut self.rec.findings,
            );
            self.tag(name, text, value, field);
        }
        if let Some(&kind) = self.bytes.get(0x40) {
            let value = match kind {
                0 => "full game".to_string(),
                1 => "opening".to_string(),
                2 => "middle game".to_string(),
                3 => "endgame".to_string(),
                other => other.to_string(),
            };
            self.tag(
                "XqfType",
                value,
                Span::new(0x40, 0x41),
                Span::new(0x40, 0x41),
            );
        }
    }

    /// The result byte as a `Result` tag.
    fn result(&mut self) {
        let Some(&code) = self.bytes.get(0x33) else {
            return;
        };
        let span = Span::new(0x33, 0x34);
        let value = match code {
            0 => "*",
            1 => "1-0",
            2 => "0-1",
            3 => "1/2-1/2",
            other => {
                self.defect(
                    span,
                    format!("XQF result byte {other} is not a known result"),
                    "known: 0 unknown, 1 Red wins, 2 Black wins, 3 draw",
                    "the result is left unrecorded",
                );
                return;
            }
        };
        self.tag("Result", value.into(), span, span);
    }

    /// The start position from the 32 stored squares: `board[file * 10 + rank]` holds the
    /// piece letter, 0 on an empty point. `None` when the header is too short to hold them.
    fn pieces(&mut self, version: u8, keys: Keys) -> Option<[u8; 90]> {
        let stored = self.bytes.get(0x10..0x30)?;
        let mut board = [0u8; 90];
        for (j, &b) in stored.iter().enumerate() {
            // From version 12 the byte at j holds piece j + key + 1 (mod 32).
            let piece = if version >= 12 {
                (j + keys.piece as usize + 1) % 32
            } else {
                j
            };
            let square = b.wrapping_sub(keys.piece);
            let span = Span::new(0x10 + j, 0x11 + j);
            let letter = PIECES[piece] as char;
            if square >= 90 {
                // Captured: 0xFF in version 10, any number from 90 on in the scrambled ones.
                if version <= 10 && square != 0xFF {
                    self.defect(
                        span,
                        format!("square number {square} of the piece `{letter}` is off the board"),
                        "squares are 0-89 (file * 10 + rank), 255 for a captured piece",
                        "the piece is taken as captured",
                    );
                }
                continue;
            }
            let cell = &mut board[square as usize];
            if *cell != 0 {
                let (held, name) = (*cell as char, square_name(square));
                self.error(
                    span,
                    format!("two pieces on {name}: `{letter}` where `{held}` stands"),
                    "a second piece on an occupied point",
                    "the start position is damaged; the later piece is left out",
                );
                continue;
            }
            *cell = PIECES[piece];
        }
        Some(board)
    }

    /// The `FEN` tag of `board`, Black to move when the first move starts on a Black piece.
    fn fen(&mut self, board: &[u8; 90]) {
        let first = self.rec.moves.first().and_then(|m| m.coord());
        let black = first.is_some_and(|c| {
            board[c.from.0 as usize * 10 + c.from.1 as usize].is_ascii_lowercase()
        });
        let mut fen = String::with_capacity(64);
        for rank in (0..10).rev() {
            let mut empty = 0u8;
            for file in 0..9 {
                match board[file * 10 + rank] {
                    0 => empty += 1,
                    letter => {
                        if empty > 0 {
                            fen.push((b'0' + empty) as char);
                            empty = 0;
                        }
                        fen.push(letter as char);
                    }
                }
            }
            if empty > 0 {
                fen.push((b'0' + empty) as char);
            }
            if rank > 0 {
                fen.push('/');
            }
        }
        fen.push_str(if black { " b - - 0 1" } else { " w - - 0 1" });
        let span = Span::new(0x10, 0x30);
        self.tag("FEN", fen, span, span);
    }
}

impl Reader<'_> {
    /// The move tree: the root record, then the records in pre-order, with an explicit stack
    /// of the alternatives announced (line, plies before the move they replace).
    fn tree(&mut self, cur: &mut Cursor) {
        let root = match cur.node() {
            Ok(root) => root,
            Err(cut) => return self.cut(cut, 0, 0, 0),
        };
        self.comment(cur, root.comment, 0);
        if root.next {
            let mut pending: Vec<(usize, u32)> = Vec::new();
            let (mut line, mut ply, mut branch) = (0usize, 0u32, false);
            loop {
                let node = match cur.node() {
                    Ok(node) => node,
                    Err(cut) => return self.cut(cut, line, ply, pending.len()),
                };
                if branch {
                    self.rec.variations.push(Variation {
                        parent: line,
                        start: ply,
                        moves: Vec::new(),
                        span: Span::new(node.at, node.at),
                    });
                    line = self.rec.variations.len();
                    branch = false;
                }
                self.push_move(line, ply, &node);
                self.comment(cur, node.comment, line);
                if node.alt {
                    pending.push((line, ply));
                }
                ply += 1;
                if !node.next {
                    let Some((l, p)) = pending.pop() else {
                        break;
                    };
                    (line, ply, branch) = (l, p, true);
                }
            }
        }
        if cur.pos < cur.body.len() {
            let n = cur.body.len() - cur.pos;
            self.defect(
                cur.file_span(cur.pos, cur.body.len()),
                format!("{n} bytes after the end of the move tree"),
                "not part of the tree",
                "the tree's last record says nothing follows; these bytes are not read",
            );
        }
    }

    /// The finding for a tree that cannot be read on, in line `line` after `ply` plies.
    fn cut(&mut self, cut: Cut, line: usize, ply: u32, pending: usize) {
        let place = match line {
            0 => format!("the main line after ply {ply}"),
            n => format!("line {n} (a variation) after ply {ply}"),
        };
        let lost = match pending {
            0 => String::new(),
            1 => "; 1 announced alternative is lost".into(),
            n => format!("; {n} announced alternatives are lost"),
        };
        self.rec.findings.push(
            Finding::new(
                Code::ParseError,
                cut.span,
                format!("the XQF move tree is cut short: {}", cut.what),
                RULE,
            )
            .label(format!("in {place}"))
            .help(format!(
                "the file is truncated or damaged: the moves before this point are kept{lost}"
            )),
        );
    }

    fn line_moves(&mut self, line: usize) -> &mut Vec<MoveRecord> {
        match line {
            0 => &mut self.rec.moves,
            n => &mut self.rec.variations[n - 1].moves,
        }
    }

    /// Appends `node` to `line` as ply `ply + 1` (its `turn` counts from the game's start).
    fn push_move(&mut self, line: usize, ply: u32, node: &Node) {
        let at = node.at;
        let span = Span::new(at, at + 4);
        let on_board = |s: u8| (s < 90).then_some((s / 10, (s % 10) as u32));
        let coord = match (on_board(node.from), on_board(node.to)) {
            (Some(from), Some(to)) => Some(CoordMove {
                from,
                to,
                capture_mark: false,
                from_span: Span::new(at, at + 1),
                to_span: Span::new(at + 1, at + 2),
            }),
            _ => None,
        };
        let name = |s: u8| match s < 90 {
            true => square_name(s),
            false => format!("#{s}"),
        };
        let text = format!("{}{}", name(node.from), name(node.to));
        if coord.is_none() {
            let bad = if node.from >= 90 { at } else { at + 1 };
            let mut f = Finding::new(
                Code::ParseError,
                Span::new(bad, bad + 1),
                format!("move `{text}` has a square number out of range"),
                RULE,
            )
            .label("squares are 0-89 (file * 10 + rank)")
            .help("the record is damaged; the move is kept but cannot be played");
            if line == 0 {
                f = f.at_ply(ply + 1);
            } else {
                f.message = format!("{} (line {line}, ply {})", f.message, ply + 1);
            }
            self.rec.findings.push(f);
        }
        let mv = MoveRecord {
            text: Spanned::new(text.into(), span),
            extra: Some(Box::new(PlyExtra {
                annotation: None,
                imported_coord: Some(coord),
            })),
            turn: ply as usize,
            span,
        };
        self.line_moves(line).push(mv);
        if line > 0 {
            let v = &mut self.rec.variations[line - 1];
            v.span.end = span.end;
        }
    }

    /// The comment at body bytes `range`, after the moves `line` holds so far.
    fn comment(&mut self, cur: &Cursor, range: Option<(usize, usize)>, line: usize) {
        let Some((start, end)) = range else {
            return;
        };
        let span = cur.file_span(start, end);
        let text = decode(
            &cur.body[start..end],
            span.start,
            "comment",
            &mut self.rec.findings,
        );
        let after = self.line_moves(line).len();
        self.rec.comments.push(Comment {
            text,
            span,
            line,
            after,
        });
        if line > 0 {
            let v = &mut self.rec.variations[line - 1];
            v.span.end = span.end;
        }
    }
}

/// The ICCS name of XQF square `s` (file * 10 + rank, both from 0): `e0` for 40.
fn square_name(s: u8) -> String {
    format!("{}{}", (b'a' + s / 10) as char, s % 10)
}

/// Decodes GB18030 text `raw` found at file offset `at`; `what` names it in a finding. A text
/// cut inside its last character (XQStudio fills a field to its limit) loses that byte with a
/// `record-defect`; other undecodable bytes become U+FFFD with one at the first of them.
fn decode(raw: &[u8], at: usize, what: &str, findings: &mut Vec<Finding>) -> String {
    let (text, errors) = GB18030.decode_without_bom_handling(raw);
    if !errors {
        return text.into_owned();
    }
    let (start, end) = first_malformed(raw);
    let span = Span::new(at + start, at + end);
    if start + 1 == raw.len() && (0x81..=0xFE).contains(&raw[start]) {
        let (clean, _) = GB18030.decode_without_bom_handling(&raw[..start]);
        findings.push(
            Finding::new(
                Code::RecordDefect,
                span,
                format!("the {what} text is cut inside a character"),
                RULE,
            )
            .label("the first byte of a two-byte character, the second is missing")
            .help(format!(
                "the byte is dropped: read as `{}`",
                crate::finding::excerpt(&clean)
            )),
        );
        return clean.into_owned();
    }
    findings.push(
        Finding::new(
            Code::RecordDefect,
            span,
            format!("the {what} text is not GB18030 from byte {}", span.start),
            RULE,
        )
        .label("no GB2312/GBK/GB18030 character")
        .help("undecodable bytes are read as U+FFFD (\u{fffd})"),
    );
    text.into_owned()
}

/// The first undecodable byte sequence of `raw` (start, end), or all of it when the decoder
/// cannot say.
fn first_malformed(raw: &[u8]) -> (usize, usize) {
    let mut decoder = GB18030.new_decoder_without_bom_handling();
    let room = decoder.max_utf8_buffer_length_without_replacement(raw.len());
    let mut out = String::with_capacity(room.unwrap_or(0));
    match decoder.decode_to_string_without_replacement(raw, &mut out, true) {
        (DecoderResult::Malformed(len, after), read) => {
            let end = read.saturating_sub(after as usize);
            (end.saturating_sub(len as usize), end)
        }
        _ => (0, raw.len()),
    }
}
