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
    /// Set when the record's comment cannot be read: the move is kept, the tree ends here.
    cut: Option<Cut>,
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

    /// The next record and its comment; `Err` when its four bytes are not all there.
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
        let (comment, cut) = match with_comment.then(|| self.comment()) {
            None => (None, None),
            Some(Ok(comment)) => (comment, None),
            Some(Err(cut)) => (None, Some(cut)),
        };
        Ok(Node {
            at: HEADER_LEN + at,
            from: from.wrapping_sub(24).wrapping_sub(self.keys.from),
            to: to.wrapping_sub(32).wrapping_sub(self.keys.to),
            next,
            alt,
            comment,
            cut,
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
        let span = Span::new(0x10, 0x30);
        self.tag("FEN", board_fen(board, black), span, span);
    }
}

/// The xqbase FEN of `board` (`board[file * 10 + rank]` holds a piece letter, 0 on an empty
/// point; files and ranks from 0, ICCS), Black to move when `black`, no moves counted yet.
pub(crate) fn board_fen(board: &[u8; 90], black: bool) -> String {
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
    fen
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
        if let Some(cut) = root.cut {
            return self.cut(cut, 0, 0, 0);
        }
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
                if line > 0 {
                    // A line's records and comments are written one after the other.
                    self.rec.variations[line - 1].span.end = HEADER_LEN + cur.pos;
                }
                if node.alt {
                    pending.push((line, ply));
                }
                ply += 1;
                if let Some(cut) = node.cut {
                    return self.cut(cut, line, ply, pending.len());
                }
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
        let text: compact_str::CompactString = match coord {
            // Four ASCII bytes, stored inline: no allocation per move.
            Some(_) => {
                let [f, t] = [node.from, node.to];
                let b = [b'a' + f / 10, b'0' + f % 10, b'a' + t / 10, b'0' + t % 10];
                std::str::from_utf8(&b).unwrap_or_default().into()
            }
            None => {
                let name = |s: u8| {
                    if s < 90 {
                        square_name(s)
                    } else {
                        format!("#{s}")
                    }
                };
                format!("{}{}", name(node.from), name(node.to)).into()
            }
        };
        if coord.is_none() {
            let bad = if node.from >= 90 { at } else { at + 1 };
            let f = Finding::new(
                Code::ParseError,
                Span::new(bad, bad + 1),
                format!("move `{text}` has a square number out of range"),
                RULE,
            )
            .label("squares are 0-89 (file * 10 + rank)")
            .help("the record is damaged; the move is kept but cannot be played")
            .at_ply(ply + 1)
            .on_line(line);
            self.rec.findings.push(f);
        }
        let extra = Box::new(PlyExtra::new(None, Some(coord)));
        let mv = MoveRecord::new(text, span, span, ply as usize, Some(extra));
        self.line_moves(line).push(mv);
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
            line_comment: false,
        });
    }
}

/// The ICCS name of XQF square `s` (file * 10 + rank, both from 0): `e0` for 40.
pub(crate) fn square_name(s: u8) -> String {
    format!("{}{}", (b'a' + s / 10) as char, s % 10)
}

/// Decodes GB18030 text `raw` found at file offset `at`; `what` names it in a finding. A text
/// cut inside its last character (XQStudio fills a field to its limit) loses that byte with a
/// `record-defect`; other undecodable bytes become U+FFFD with one at the first of them.
pub(crate) fn decode(raw: &[u8], at: usize, what: &str, findings: &mut Vec<Finding>) -> String {
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

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Bytes from hex pairs, spaces ignored.
    fn hex(s: &str) -> Vec<u8> {
        let digits: Vec<u8> = s.bytes().filter(|b| b.is_ascii_hexdigit()).collect();
        digits
            .chunks(2)
            .map(|p| u8::from_str_radix(std::str::from_utf8(p).unwrap(), 16).unwrap())
            .collect()
    }

    fn put(buf: &mut [u8], at: usize, bytes: &[u8]) {
        buf[at..at + bytes.len()].copy_from_slice(bytes);
    }

    /// The example file of XQF.TXT (XQF 1.0 by XQStudio's author, section 附 B), byte for byte:
    /// 柳大华 v 吕钦, 1997, 16 plies.
    fn spec_example() -> Vec<u8> {
        let mut f = vec![0u8; HEADER_LEN];
        put(&mut f, 0, &hex("58 51 0A"));
        put(
            &mut f,
            0x10,
            &hex("50 46 3C 32 28 1E 14 0A 00 48 0C 53 3F 2B 17 03"),
        );
        put(
            &mut f,
            0x20,
            &hex("09 13 1D 27 31 3B 45 4F 59 11 4D 06 1A 2E 42 56"),
        );
        put(&mut f, 0x33, &[2]);
        put(
            &mut f,
            0x50,
            &hex("10 CF C9 C8 CB D6 B8 C2 B7 B6 D4 C6 F0 C2 ED BE D6"),
        );
        put(
            &mut f,
            0xD0,
            &hex("16 22 D6 D0 C1 A2 B1 AD 22 CF F3 C6 E5 B5 E7 CA D3 BF EC C6 E5 C8 FC"),
        );
        put(
            &mut f,
            0x110,
            &hex("0E 31 39 39 37 C4 EA 31 31 D4 C2 31 36 C8 D5"),
        );
        put(&mut f, 0x120, &hex("04 B1 B1 BE A9"));
        put(&mut f, 0x130, &hex("06 C1 F8 B4 F3 BB AA"));
        put(&mut f, 0x140, &hex("06 C2 C0 20 20 C7 D5"));
        put(&mut f, 0x1D0, &hex("06 C1 F5 B5 EE D6 D0"));
        put(&mut f, 0x1E0, &hex("06 B9 FD BA D3 CF F3"));
        f.extend(hex("18 20 F0 FF 00 00 00 00"));
        let moves =
            "2F38 6763 5760 293B 2C4A 2B27 2236 2133 182A 2B2F 2422 276B 606D 336D 5E5E 716F";
        let n = moves.split(' ').count();
        for (i, m) in moves.split(' ').enumerate() {
            f.extend(hex(m));
            f.extend([if i + 1 < n { 0xF0 } else { 0 }, 0, 0, 0, 0, 0]);
        }
        assert_eq!(f.len(), 0x488, "XQF.TXT: the example file is 0x488 bytes");
        f
    }

    fn texts(m: &[MoveRecord]) -> String {
        m.iter().map(|m| m.text()).collect::<Vec<_>>().join(" ")
    }

    fn assert_inside(rec: &GameRecord, len: usize) {
        for s in rec.spans() {
            assert!(
                s.start <= s.end && s.end <= len,
                "{s:?} outside {len} bytes"
            );
        }
    }

    #[test]
    fn the_spec_example_reads_as_its_text_says() {
        let f = spec_example();
        let rec = read_xqf(&f, 3);
        assert_eq!(rec.findings, vec![]);
        assert_eq!((rec.index, rec.span), (3, Span::new(0, 0x488)));
        assert_eq!(rec.implied_game.as_deref(), Some("xiangqi"));
        let tags: Vec<(&str, &str)> = rec
            .tags
            .iter()
            .map(|t| (t.name.value.as_str(), t.value.value.as_str()))
            .collect();
        assert_eq!(
            tags,
            [
                ("XqfVersion", "1.0"),
                ("Title", "仙人指路对起马局"),
                ("Event", "\"中立杯\"象棋电视快棋赛"),
                ("Date", "1997年11月16日"),
                ("Site", "北京"),
                ("Red", "柳大华"),
                ("Black", "吕  钦"),
                ("Annotator", "刘殿中"),
                ("Author", "过河象"),
                ("XqfType", "full game"),
                ("Result", "0-1"),
                ("FEN", crate::games::xiangqi::fen::START),
            ]
        );
        let title = rec.tag("Title").unwrap();
        assert_eq!(
            (title.value.span, title.span),
            (Span::new(0x51, 0x61), Span::new(0x50, 0x90))
        );
        assert_eq!(rec.tag("FEN").unwrap().value.span, Span::new(0x10, 0x30));
        assert_eq!(
            texts(&rec.moves),
            "c3c4 h9g7 g3g4 b7c7 c0e2 b9a7 b0c2 a9b9 a0b0 b9b5 b2a2 b5h5 h2h7 c7h7 h0g2 i9h9"
        );
        assert_eq!(rec.turns, 16);
        // 兵七进一 is the record at 0x408: its from-byte 0x2F, its to-byte 0x38.
        let first = &rec.moves[0];
        assert_eq!((first.span(), first.turn), (Span::new(0x408, 0x40C), 0));
        let c = first.coord().unwrap();
        assert_eq!((c.from, c.to), ((2, 3), (2, 4)));
        assert_eq!(
            (c.from_span, c.to_span),
            (Span::new(0x408, 0x409), Span::new(0x409, 0x40A))
        );
        assert_eq!(rec.moves[15].span(), Span::new(0x480, 0x484));
        assert!(rec.variations.is_empty() && rec.comments.is_empty());
    }

    /// A move record to write: XQF squares (file * 10 + rank), its flags, its comment.
    struct W {
        from: u8,
        to: u8,
        next: bool,
        alt: bool,
        comment: &'static [u8],
    }

    fn w(from: u8, to: u8, next: bool, alt: bool, comment: &'static [u8]) -> W {
        W {
            from,
            to,
            next,
            alt,
            comment,
        }
    }

    /// The key schedule as walker8088/cchess writes it (nested form), computed here apart
    /// from [`Keys::schedule`]: (piece, from, to, comment, stream) of key bytes 3-15.
    fn test_keys(k: &[u8; 13]) -> (u8, u8, u8, u32, [u8; 32]) {
        let f = |b: u8, m: u8| {
            let b = b as u64;
            (((((((b * b) * 3 + 9) * 3 + 8) * 2 + 1) * 3 + 8) * m as u64) & 0xFF) as u8
        };
        let (mask, or, sum, xy, xyf, xyt) = (k[0], &k[5..9], k[9], k[10], k[11], k[12]);
        let piece = f(xy, xy);
        let from = f(xyf, piece);
        let to = f(xyt, from);
        let bytes = [sum, xy, xyf, xyt];
        let stream = std::array::from_fn(|i| STREAM_MASK[i] & ((bytes[i % 4] & mask) | or[i % 4]));
        (
            piece,
            from,
            to,
            (sum as u32 * 256 + xy as u32) % 32000 + 767,
            stream,
        )
    }

    const KEY: [u8; 13] = [
        0xA3, 1, 2, 3, 4, 0x11, 0x22, 0x33, 0x44, 0x5C, 0x3D, 0x77, 0xC8,
    ];

    /// An XQF file of `version` (10 plain, else scrambled with [`KEY`]): `pieces[i]` is the
    /// square of piece `i` (order of [`PIECES`]; 0xFF captured), `records` the tree with its
    /// root first. Noise goes where XQStudio writes noise (low flag bits, reserved bytes,
    /// captured pieces' squares).
    fn xqf(version: u8, pieces: &[u8; 32], title: &[u8], records: &[W]) -> Vec<u8> {
        let mut f = vec![0u8; HEADER_LEN];
        put(&mut f, 0, &[b'X', b'Q', version]);
        let (kp, kf, kt, kc, stream) = if version > 10 {
            put(&mut f, 3, &KEY);
            test_keys(&KEY)
        } else {
            (0, 0, 0, 0, [0; 32])
        };
        for (i, &sq) in pieces.iter().enumerate() {
            let j = if version >= 12 {
                (i + 64 - kp as usize % 32 - 1) % 32
            } else {
                i
            };
            let stored = if sq == 0xFF && version > 10 {
                150 + i as u8
            } else {
                sq
            };
            f[0x10 + j] = stored.wrapping_add(kp);
        }
        f[0x50] = title.len() as u8;
        put(&mut f, 0x51, title);
        for r in records {
            let flags = match version {
                10 => (if r.next { 0xF0 } else { 0 }) | (if r.alt { 0x0F } else { 0 }),
                _ => {
                    (r.next as u8) << 7
                        | (r.alt as u8) << 6
                        | (!r.comment.is_empty() as u8) << 5
                        | 0x15
                }
            };
            let reserved = if version > 10 { 0xA5 } else { 0 };
            let (from, to) = (
                r.from.wrapping_add(24).wrapping_add(kf),
                r.to.wrapping_add(32).wrapping_add(kt),
            );
            f.extend([from, to, flags, reserved]);
            if version == 10 || !r.comment.is_empty() {
                f.extend((r.comment.len() as u32).wrapping_add(kc).to_le_bytes());
                f.extend(r.comment);
            }
        }
        for (i, b) in f[HEADER_LEN..].iter_mut().enumerate() {
            *b = b.wrapping_add(stream[i % 32]);
        }
        f
    }

    /// An endgame: Red General e0 (40), Chariot a9 (9); Black General d9 (39), Soldier d1
    /// (31); the other 28 pieces captured.
    fn endgame() -> [u8; 32] {
        let mut p = [0xFF; 32];
        (p[4], p[0], p[20], p[27]) = (40, 9, 39, 31);
        p
    }

    /// Black, in check, moves first: 1... d9d8 (comment 好) 2. a9a8 d8d9; an alternative to
    /// ply 2, a9b9 (comment 车), and one to ply 1, d9e9 a9b9. The root holds the comment 棋.
    fn tree() -> Vec<W> {
        vec![
            w(0, 0, true, false, b"\xc6\xe5"),
            w(39, 38, true, true, b"\xba\xc3"),
            w(9, 8, true, true, b""),
            w(38, 39, false, false, b""),
            w(9, 19, false, false, b"\xb3\xb5"),
            w(39, 49, true, false, b""),
            w(9, 19, false, false, b""),
        ]
    }

    #[test]
    fn scrambled_versions_read_the_tree_and_black_moving_first() {
        for version in [10, 11, 12, 13, 15, 16, 18] {
            let f = xqf(version, &endgame(), b"\xb2\xd0\xbe\xd6", &tree()); // 残局
            let rec = read_xqf(&f, 0);
            assert_eq!(rec.findings, vec![], "version {version}");
            assert_eq!(rec.tag_value("Title"), Some("残局"));
            assert_eq!(
                rec.tag_value("FEN"),
                Some("R2k5/9/9/9/9/9/9/9/3p5/4K4 b - - 0 1")
            );
            assert_eq!(texts(&rec.moves), "d9d8 a9a8 d8d9");
            let lines: Vec<(usize, u32, String, Span)> = rec
                .variations
                .iter()
                .map(|v| (v.parent, v.start, texts(&v.moves), v.span))
                .collect();
            // Records: v10 8 bytes (+ comment); v11+ 4 (+ 4 + comment when there is one).
            let (record, commented) = if version == 10 { (8, 10) } else { (4, 10) };
            let at4 = HEADER_LEN + 2 * commented + 2 * record;
            let (at5, end) = (at4 + commented, f.len());
            assert_eq!(
                lines,
                [
                    (0, 1, "a9b9".to_string(), Span::new(at4, at5)),
                    (0, 0, "d9e9 a9b9".to_string(), Span::new(at5, end)),
                ],
                "version {version}"
            );
            assert_eq!(
                rec.variations[1].moves[1].turn, 1,
                "turns count from the start"
            );
            let comments: Vec<(&str, usize, usize)> = rec
                .comments
                .iter()
                .map(|c| (c.text.as_str(), c.line, c.after))
                .collect();
            assert_eq!(comments, [("棋", 0, 0), ("好", 0, 1), ("车", 1, 1)]);
            assert_eq!(rec.comments[2].span, Span::new(at5 - 2, at5));
            assert_eq!(
                rec.comments[0].span,
                Span::new(HEADER_LEN + 8, HEADER_LEN + 10)
            );
        }
    }

    #[test]
    fn the_key_schedule_gives_the_numbers_worked_out_by_hand() {
        let mut header = [0u8; 16];
        header[3..].copy_from_slice(&KEY);
        let k = Keys::schedule(&header);
        // 54 * 61^2 + 221 = 201155; * 61 = 12270455 = 47931 * 256 + 119.
        assert_eq!((k.piece, k.from, k.to, k.comment), (119, 245, 1, 24380));
        assert_eq!(k.stream[..8], [17, 32, 3, 0, 0, 3, 35, 64]);
        let (p, f, t, c, s) = test_keys(&KEY);
        assert_eq!(
            (p, f, t, c, s),
            (k.piece, k.from, k.to, k.comment, k.stream)
        );
    }

    /// `(code, span, message)` of each finding.
    fn found(rec: &GameRecord) -> Vec<(Code, Span, String)> {
        rec.findings
            .iter()
            .map(|f| (f.code, f.span, f.message.clone()))
            .collect()
    }

    fn one(rec: &GameRecord, code: Code, span: Span, message: &str) {
        assert_eq!(found(rec), [(code, span, message.to_string())]);
    }

    #[test]
    fn what_is_no_xqf_is_one_parse_error_at_its_start() {
        let cases: [(&[u8], Span, &str); 4] = [
            (
                b"",
                Span::new(0, 0),
                "not an XQF file: it does not start with `XQ`",
            ),
            (
                b"X",
                Span::new(0, 1),
                "not an XQF file: it does not start with `XQ`",
            ),
            (
                b"[Game \"xiangqi\"]",
                Span::new(0, 2),
                "not an XQF file: it does not start with `XQ`",
            ),
            (
                b"XQ",
                Span::new(2, 2),
                "the file ends before the XQF version byte",
            ),
        ];
        for (bytes, span, message) in cases {
            let rec = read_xqf(bytes, 0);
            one(&rec, Code::ParseError, span, message);
            assert!(rec.tags.is_empty() && rec.moves.is_empty());
        }
        assert!(looks_like_xqf(&spec_example()) && looks_like_xqf(b"XQ"));
        assert!(!looks_like_xqf(b"XQF notes") && !looks_like_xqf(b"[XQ"));
    }

    #[test]
    fn a_short_header_keeps_what_it_holds() {
        // Cut inside Red's name (0x131..0x137): 柳大 of 柳大华 is there.
        let rec = read_xqf(&spec_example()[..0x135], 0);
        one(
            &rec,
            Code::ParseError,
            Span::new(0x135, 0x135),
            "the file ends at byte 309 inside the 1024-byte XQF header",
        );
        assert_eq!(rec.tag_value("Red"), Some("柳大"));
        assert_eq!(rec.tag_value("Black"), None);
        assert_eq!(
            rec.tag_value("FEN"),
            Some(crate::games::xiangqi::fen::START)
        );
        assert!(rec.moves.is_empty());
        // The header alone: the tree's root is missing.
        let rec = read_xqf(&spec_example()[..HEADER_LEN], 0);
        one(
            &rec,
            Code::ParseError,
            Span::new(HEADER_LEN, HEADER_LEN),
            "the XQF move tree is cut short: the file ends where a move record should follow",
        );
        assert_eq!(rec.findings[0].label, "in the main line after ply 0");
    }

    #[test]
    fn a_cut_tree_keeps_the_moves_before_the_cut() {
        let f = spec_example();
        // Inside the fourth move record (0x420..0x424).
        let rec = read_xqf(&f[..0x422], 0);
        let message = "the XQF move tree is cut short: the file ends inside a move record";
        one(&rec, Code::ParseError, Span::new(0x420, 0x422), message);
        assert_eq!(texts(&rec.moves), "c3c4 h9g7 g3g4");
        assert_eq!(rec.findings[0].label, "in the main line after ply 3");
        // Inside the fourth record's comment length: its move is kept.
        let rec = read_xqf(&f[..0x426], 0);
        let message = "the XQF move tree is cut short: the file ends inside a comment length";
        one(&rec, Code::ParseError, Span::new(0x424, 0x426), message);
        assert_eq!(rec.moves.len(), 4);
        // A tree whose last record says a move follows never ends: the file does.
        let mut f = f;
        f[0x482] = 0xF0;
        let rec = read_xqf(&f, 0);
        let message =
            "the XQF move tree is cut short: the file ends where a move record should follow";
        one(&rec, Code::ParseError, Span::new(0x488, 0x488), message);
        assert_eq!(rec.moves.len(), 16);
    }

    #[test]
    fn a_comment_length_past_the_end_is_located_and_never_allocated() {
        let mut f = spec_example();
        // Move 2's comment length (0x414..0x418) = 2^31.
        put(&mut f, 0x414, &[0, 0, 0, 0x80]);
        let rec = read_xqf(&f, 0);
        let message = "the XQF move tree is cut short: a comment length of 2147483648 bytes runs past the end of the file (112 bytes left)";
        one(&rec, Code::ParseError, Span::new(0x414, 0x418), message);
        assert_eq!(texts(&rec.moves), "c3c4 h9g7");
        assert!(rec.comments.is_empty());
        // Scrambled: the stored length less the key; a length of 3 with one byte left.
        let mut records = tree();
        records.truncate(2);
        records[1].next = false;
        records[1].alt = false;
        let mut f = xqf(16, &endgame(), b"", &records);
        f.truncate(f.len() - 1);
        let rec = read_xqf(&f, 0);
        let at = f.len() - 1 - 4;
        let message = "the XQF move tree is cut short: a comment length of 2 bytes runs past the end of the file (1 bytes left)";
        one(&rec, Code::ParseError, Span::new(at, at + 4), message);
        assert_eq!(texts(&rec.moves), "d9d8");
    }

    #[test]
    fn damaged_squares_and_fields_are_located() {
        let mut f = spec_example();
        f[0x418] = 24 + 95; // move 3's from-square: 95
        f[0x11] = 0x50; // the Horse of h0 (stored second) on i0, where a Chariot stands
        f[0x2F] = 120; // Black's last Soldier on square 120
        f[0x33] = 7; // result 7
        f[0x110] = 0x20; // the Date's length byte: 32 for a 16-byte field
        let rec = read_xqf(&f, 0);
        let want = [
            (
                Code::RecordDefect,
                Span::new(0x110, 0x111),
                "the Date text's length byte says 32 bytes, its field holds 15",
            ),
            (
                Code::RecordDefect,
                Span::new(0x33, 0x34),
                "XQF result byte 7 is not a known result",
            ),
            (
                Code::ParseError,
                Span::new(0x11, 0x12),
                "two pieces on i0: `N` where `R` stands",
            ),
            (
                Code::RecordDefect,
                Span::new(0x2F, 0x30),
                "square number 120 of the piece `p` is off the board",
            ),
            (
                Code::ParseError,
                Span::new(0x418, 0x419),
                "move `#95g4` has a square number out of range",
            ),
        ];
        assert_eq!(found(&rec), want.map(|(c, s, m)| (c, s, m.to_string())));
        assert_eq!(rec.findings[4].ply, Some(3));
        assert_eq!(rec.tag_value("Date"), Some("1997年11月16日\0"));
        assert_eq!(rec.tag_value("Result"), None);
        assert_eq!(
            rec.tag_value("FEN"),
            Some("rnbakabnr/9/1c5c1/p1p1p1p2/9/9/P1P1P1P1P/1C5C1/9/RNBAKAB1R w - - 0 1")
        );
        assert_eq!(rec.moves[2].coord(), None);
        assert_eq!(rec.moves.len(), 16, "the tree goes on after the bad square");
    }

    #[test]
    fn repaired_defects_are_warnings_with_their_bytes() {
        let mut f = spec_example();
        f[0x50] = 15; // 仙人指路对起马局 cut after 15 of its 16 bytes
        f[2] = 25; // version 2.5: read as a scrambled version
        f.extend([1, 2, 3]);
        // A scrambled reading of the plain tree is garbage: keep the header checks apart.
        let rec = read_xqf(&f[..HEADER_LEN], 0);
        let want = [
            (
                Code::RecordDefect,
                Span::new(2, 3),
                "XQF version byte 25 is not a known version",
            ),
            (
                Code::RecordDefect,
                Span::new(0x5F, 0x60),
                "the Title text is cut inside a character",
            ),
            (
                Code::ParseError,
                Span::new(HEADER_LEN, HEADER_LEN),
                "the XQF move tree is cut short: the file ends where a move record should follow",
            ),
        ];
        assert_eq!(found(&rec), want.map(|(c, s, m)| (c, s, m.to_string())));
        assert_eq!(rec.tag_value("Title"), Some("仙人指路对起马"));
        assert_eq!(rec.tag_value("XqfVersion"), Some("2.5"));
        let mut f = spec_example();
        f.extend([1, 2, 3]);
        let rec = read_xqf(&f, 0);
        one(
            &rec,
            Code::RecordDefect,
            Span::new(0x488, 0x48B),
            "3 bytes after the end of the move tree",
        );
        let mut records = tree();
        records[1].comment = b"\xba\xc3\xff\xba"; // 好, a byte no character starts with, then a cut
        let rec = read_xqf(&xqf(18, &endgame(), b"", &records), 0);
        let at = rec.comments[1].span.start;
        one(
            &rec,
            Code::RecordDefect,
            Span::new(at + 2, at + 3),
            &format!("the comment text is not GB18030 from byte {}", at + 2),
        );
        assert_eq!(rec.comments[1].text, "好\u{fffd}\u{fffd}");
    }

    #[test]
    fn a_deep_tree_reads_without_recursion() {
        // 50,000 moves each announcing an alternative, then the 50,000 alternatives.
        let n = 50_000;
        let mut records = vec![w(0, 0, true, false, b"")];
        records.extend((0..n).map(|i| w(40, 41, i + 1 < n, true, b"")));
        records.extend((0..n).map(|_| w(41, 40, false, false, b"")));
        let f = xqf(18, &endgame(), b"", &records);
        let rec = read_xqf(&f, 0);
        assert_eq!(rec.findings, vec![]);
        assert_eq!((rec.moves.len(), rec.variations.len()), (n, n));
        for (i, v) in rec.variations.iter().enumerate() {
            assert_eq!(
                (v.parent, v.start as usize, v.moves.len()),
                (0, n - 1 - i, 1)
            );
        }
        assert_inside(&rec, f.len());
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(256))]
        /// Damaged files (cut, bytes changed) never panic, every span lies inside the file
        /// and no line holds more moves than the file has 4-byte records.
        #[test]
        fn damaged_files_never_panic(
            version in prop::sample::select(vec![10u8, 11, 12, 18]),
            cut in 0usize..1200,
            changes in prop::collection::vec((0usize..1200, any::<u8>()), 0..12),
        ) {
            let mut f = if version == 10 { spec_example() } else { xqf(version, &endgame(), b"\xb2\xd0", &tree()) };
            for (at, b) in changes {
                let i = at % f.len();
                f[i] = b;
            }
            f.truncate(cut.max(f.len() / 2));
            let rec = read_xqf(&f, 0);
            assert_inside(&rec, f.len());
            let moves = rec.moves.len() + rec.variations.iter().map(|v| v.moves.len()).sum::<usize>();
            prop_assert!(moves <= f.len().saturating_sub(HEADER_LEN) / 4);
        }
    }
}
