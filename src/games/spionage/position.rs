//! A Spionage game taken up from a position (docs/log-format.md, positions): the `Position`
//! tag names the side to move, `setup white` / `setup black` give each side's pieces wherever
//! they stand, `Unmasked` the pieces a Spy has unmasked to their opponent, `NoReturn` the moves
//! the no-return rule forbids, and `TurnMove` the first move of a turn half played (rulings
//! §2). Checked like a setup, every problem at once ([`read_position`]); written back by
//! [`write_position`].

use super::pieces::{Kind, ARMY, KINDS, LETTERS};
use super::setup::{side_name, side_word, BOARD, ZONES};
use super::{Piece, State, Step, SOURCE};
use crate::finding::{Code, Finding};
use crate::geometry::{Square, MAX_SQUARES};
use crate::record::{GameRecord, SetupRow, Tag};
use crate::rules::{coords, StartText};
use crate::types::{Side, Span};

/// The squares of a board, `rank * 10 + file`.
type Board = [Option<Piece>; MAX_SQUARES];

/// What a position start gives: the squares, the side to move, the turn in progress and the
/// previous turns as the no-return rule reads them, the unmaskings, the lost pieces.
pub(crate) struct Start {
    pub board: Board,
    pub to_move: Side,
    pub current: [Option<Step>; 2],
    pub previous: [[Option<Step>; 2]; 2],
    pub unmasked: [[Option<u32>; 2 * ARMY]; 2],
    pub lost: [Vec<Piece>; 2],
}

impl Start {
    /// The start of a game from its setups: White to move, nothing played.
    pub(crate) fn from_setups(board: Board) -> Start {
        Start {
            board,
            to_move: Side::First,
            current: [None; 2],
            previous: [[None; 2]; 2],
            unmasked: [[None; 2 * ARMY]; 2],
            lost: [Vec::new(), Vec::new()],
        }
    }
}

/// A `setup-invalid` finding under rulings §2.
fn problem(span: Span, message: String, label: &str) -> Finding {
    Finding::new(Code::SetupInvalid, span, message, SOURCE).label(label.to_string())
}

/// Reads the position start of `record`, whose `Position` tag is `tag`, on a board with the
/// volcanoes `volcano`: at most the army of each side, no piece on a volcano or on another,
/// every Mine and the Headquarters in their owner's setup zone (they never move), the
/// Headquarters of each side; the `Unmasked`, `NoReturn` and `TurnMove` tags (`moves_per_turn`:
/// 1 in `spionage-snel`, which has no half-played turn). Every problem at once. `start_ply`
/// is the ply the unmaskings are dated to.
pub(crate) fn read_position(
    record: &GameRecord,
    tag: &Tag,
    volcano: &[bool; MAX_SQUARES],
    moves_per_turn: usize,
    start_ply: u32,
) -> Result<Start, Vec<Finding>> {
    let mut errors = Vec::new();
    let to_move = position_side(tag, &mut errors);
    let mut board = [None; MAX_SQUARES];
    let written = [Side::First, Side::Second]
        .map(|side| read_side(record, side, volcano, &mut board, &mut errors));
    for side in [Side::First, Side::Second] {
        errors.extend(army_problem(record, tag, &written[side.index()], side));
    }
    let mut start = Start {
        board,
        to_move,
        current: [None; 2],
        previous: [[None; 2]; 2],
        unmasked: [[None; 2 * ARMY]; 2],
        lost: [Vec::new(), Vec::new()],
    };
    read_unmasked(record, &mut start, start_ply, &mut errors);
    read_no_return(record, &mut start, &mut errors);
    read_turn_move(record, &mut start, moves_per_turn, &mut errors);
    if !errors.is_empty() {
        return Err(errors);
    }
    start.lost = [Side::First, Side::Second].map(|side| lost(&start.board, side));
    Ok(start)
}

/// The side to move a `Position` tag names (`white` or `black`).
fn position_side(tag: &Tag, errors: &mut Vec<Finding>) -> Side {
    let word = tag.value.value.trim().to_ascii_lowercase();
    match [Side::First, Side::Second]
        .into_iter()
        .find(|&s| side_word(s) == word)
    {
        Some(side) => side,
        None => {
            errors.push(
                problem(
                    tag.value.span,
                    format!("`{}` is not a side to move", crate::finding::excerpt(&tag.value.value)),
                    "expected white or black",
                )
                .help("[Position \"white\"] or [Position \"black\"]: the side whose turn it is in the position the setup sections give"),
            );
            Side::First
        }
    }
}

/// Reads `side`'s section into `board`: rows of any rank, each at most once, `.` for a square
/// without a piece of this side. Ids: White's from 0, Black's from 30, in reading order.
/// Returns how many of each kind the rows name (those refused on a volcano, on another piece
/// or outside the zone included), for the army check.
fn read_side(
    record: &GameRecord,
    side: Side,
    volcano: &[bool; MAX_SQUARES],
    board: &mut Board,
    errors: &mut Vec<Finding>,
) -> [u8; 9] {
    let mut written = [0u8; 9];
    let word = side_word(side);
    let mut blocks = record.setups.iter().filter(|b| b.side.value == word);
    let Some(block) = blocks.next() else {
        return written;
    };
    for extra in blocks {
        errors.push(
            problem(
                extra.side.span,
                format!("a second setup for {}", side_name(side)),
                "duplicate setup section",
            )
            .with_label(block.side.span, "first setup here")
            .help("give each side's pieces in one section"),
        );
    }
    let mut seen = [false; 10];
    let mut next_id = (side.index() * ARMY) as u16;
    for row in &block.rows {
        let Some(rank0) = row_rank(row, side, &mut seen, errors) else {
            continue;
        };
        for (file, (off, c)) in row.cells.value.char_indices().enumerate() {
            let at = row.cells.span.start + off;
            let sq = BOARD.square(file as i32, rank0 as i32);
            let (Some(sq), false) = (sq, c == '.') else {
                continue;
            };
            if let Some(k) = Kind::from_letter(c) {
                written[k.index()] = written[k.index()].saturating_add(1);
            }
            match position_piece(board, volcano, sq, side, c) {
                Ok(kind) if next_id < ((side.index() + 1) * ARMY) as u16 => {
                    board[sq as usize] = Some(Piece {
                        side,
                        kind,
                        id: next_id,
                    });
                    next_id += 1;
                }
                Ok(_) => errors.push(problem(
                    Span::new(at, at + c.len_utf8()),
                    format!("a 31st piece for {}", side_name(side)),
                    "a side has at most the 30 pieces of its army",
                )),
                Err((message, label)) => {
                    errors.push(problem(Span::new(at, at + c.len_utf8()), message, &label));
                }
            }
        }
    }
    written
}

/// The 0-based rank of a position row, or `None` with its problem: a rank off the board,
/// given twice for one side, a row of the wrong width.
fn row_rank(
    row: &SetupRow,
    side: Side,
    seen: &mut [bool],
    errors: &mut Vec<Finding>,
) -> Option<u8> {
    let written = row.rank.value;
    let f = if !(1..=10).contains(&written) {
        problem(
            row.rank.span,
            format!("rank {written} is not on the board"),
            "the board has ranks 1 to 10",
        )
    } else if std::mem::replace(&mut seen[written as usize - 1], true) {
        problem(
            row.rank.span,
            format!("rank {written} is given twice for {}", side_name(side)),
            "second row for this rank",
        )
    } else {
        let n = row.cells.value.chars().count();
        if n == 10 {
            return Some(written as u8 - 1);
        }
        problem(
            row.cells.span,
            format!("rank {written} has {n} squares, the board has 10"),
            "expected 10 characters, one per file a to j",
        )
        .help(format!(
            "letters: {LETTERS}, and . for a square without a piece of this side"
        ))
    };
    errors.push(f);
    None
}

/// The kind letter `c` of `side` puts on `sq`, or what is wrong with it (message, label).
fn position_piece(
    board: &Board,
    volcano: &[bool; MAX_SQUARES],
    sq: Square,
    side: Side,
    c: char,
) -> Result<Kind, (String, String)> {
    let here = BOARD.name(sq);
    let Some(kind) = Kind::from_letter(c) else {
        let what = format!("unknown piece letter `{}`", c.escape_debug());
        return Err((what, "not a Spionage piece letter".into()));
    };
    if volcano[sq as usize] {
        return Err((
            format!("piece on the volcano {here}"),
            "nothing may enter a volcano".into(),
        ));
    }
    if let Some(other) = board[sq as usize] {
        let what = format!("{here} holds a {} piece already", side_name(other.side));
        return Err((what, "two pieces on one square".into()));
    }
    if !kind.movable() && !ZONES[side.index()].contains(&BOARD.rank(sq)) {
        let what = format!(
            "{}'s {} on {here} is outside its setup zone",
            side_name(side),
            kind.name()
        );
        let z = &ZONES[side.index()];
        let label = format!(
            "Mines and the Headquarters never move: {} keeps them on ranks {} to {}",
            side_name(side),
            z.start() + 1,
            z.end() + 1
        );
        return Err((what, label));
    }
    Ok(kind)
}

/// How many of each kind `side` has on `board`.
fn counts(board: &Board, side: Side) -> [u8; 9] {
    let mut counts = [0u8; 9];
    for p in board.iter().flatten().filter(|p| p.side == side) {
        counts[p.kind.index()] += 1;
    }
    counts
}

/// The finding for a side whose pieces, as written (`have`, per [`Kind::index`]), exceed the
/// army or lack the Headquarters.
fn army_problem(record: &GameRecord, tag: &Tag, have: &[u8; 9], side: Side) -> Option<Finding> {
    let mut wrong: Vec<String> = KINDS
        .iter()
        .filter(|k| have[k.index()] > k.count())
        .map(|k| format!("{} {} (at most {})", have[k.index()], k.name(), k.count()))
        .collect();
    if have[Kind::Headquarters.index()] == 0 {
        wrong.push("no Headquarters".into());
    }
    if wrong.is_empty() {
        return None;
    }
    let word = side_word(side);
    let at = record
        .setups
        .iter()
        .find(|b| b.side.value == word)
        .map_or(tag.span, |b| b.side.span);
    Some(
        problem(
            at,
            format!(
                "{}'s pieces do not fit the army: {}",
                side_name(side),
                wrong.join(", ")
            ),
            "pieces of this side",
        )
        .help("a position holds at most the 30 pieces of the army and always the Headquarters"),
    )
}

/// The pieces of the army `side` does not have on `board`; ids after the side's pieces.
fn lost(board: &Board, side: Side) -> Vec<Piece> {
    let have = counts(board, side);
    let mut next = (side.index() * ARMY) as u16 + have.iter().map(|&n| n as u16).sum::<u16>();
    let mut out = Vec::new();
    for k in KINDS {
        for _ in have[k.index()]..k.count() {
            out.push(Piece {
                side,
                kind: k,
                id: next,
            });
            next += 1;
        }
    }
    out
}

/// The words of tag `name` with the square or move each names, problems for the others.
fn tag_items<T>(
    record: &GameRecord,
    name: &str,
    parse: impl Fn(&str) -> Option<T>,
    (expected, plural): (&str, &str),
    errors: &mut Vec<Finding>,
) -> Vec<(Span, T)> {
    let Some(tag) = record.tag(name) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for (span, word) in coords::tag_words(tag) {
        match parse(word) {
            Some(v) => out.push((span, v)),
            None => errors.push(problem(
                span,
                format!("`{}` is not {expected}", word.escape_debug()),
                &format!("{name} lists {plural}"),
            )),
        }
    }
    out
}

/// The `Unmasked` tag: the squares of pieces a Spy has unmasked to their opponent.
fn read_unmasked(record: &GameRecord, start: &mut Start, ply: u32, errors: &mut Vec<Finding>) {
    let squares = tag_items(
        record,
        "Unmasked",
        |w| coords::parse_square(&BOARD, w),
        ("a square", "squares"),
        errors,
    );
    for (span, sq) in squares {
        match start.board[sq as usize] {
            Some(p) => start.unmasked[p.side.other().index()][p.id as usize] = Some(ply),
            None => errors.push(problem(
                span,
                format!("no piece on {} to unmask", BOARD.name(sq)),
                "expected the square of a piece its opponent knows",
            )),
        }
    }
}

/// The `NoReturn` tag: the moves the no-return rule forbids at the start, `e4-e3` for a piece
/// on e4 that came from e3 in its owner's previous turn (at most two a side).
fn read_no_return(record: &GameRecord, start: &mut Start, errors: &mut Vec<Finding>) {
    let moves = tag_items(
        record,
        "NoReturn",
        |w| coords::parse_move(&BOARD, w),
        ("a move", "moves"),
        errors,
    );
    for (span, (at, back)) in moves {
        let piece = start.board[at as usize].filter(|p| p.kind.movable());
        let why = match piece {
            None => Some(format!("no piece on {} that moves", BOARD.name(at))),
            Some(_) if BOARD.distance(at, back) != 1 => Some(format!(
                "{} is not next to {}",
                BOARD.name(back),
                BOARD.name(at)
            )),
            Some(p) => {
                let slots = &mut start.previous[p.side.index()];
                match slots.iter_mut().find(|s| s.is_none()) {
                    Some(slot) => {
                        *slot = Some(Step {
                            piece: p.id,
                            from: back,
                            to: at,
                        });
                        None
                    }
                    None => Some(format!(
                        "more than two moves of {}'s previous turn",
                        side_name(p.side)
                    )),
                }
            }
        };
        if let Some(message) = why {
            errors.push(
                problem(span, message, "not a move the no-return rule can forbid")
                .help("NoReturn lists the moves straight back of the pieces that moved in their owner's previous turn, e.g. [NoReturn \"e4-e3\"]"),
            );
        }
    }
}

/// The `TurnMove` tag: the first move of the side to move's turn, already played (from-to);
/// its piece stands on the to-square, or died there attacking. Not in `spionage-snel`.
fn read_turn_move(
    record: &GameRecord,
    start: &mut Start,
    moves_per_turn: usize,
    errors: &mut Vec<Finding>,
) {
    let moves = tag_items(
        record,
        "TurnMove",
        |w| coords::parse_move(&BOARD, w),
        ("a move", "moves"),
        errors,
    );
    for (n, (span, (from, to))) in moves.into_iter().enumerate() {
        let mover = start.board[to as usize];
        let why = if moves_per_turn == 1 {
            Some("spionage-snel plays one move a turn: no turn is half played".to_string())
        } else if n > 0 {
            Some("a turn is half played by one move".to_string())
        } else if BOARD.distance(from, to) != 1 {
            Some(format!(
                "{}-{} is not one step",
                BOARD.name(from),
                BOARD.name(to)
            ))
        } else if start.board[from as usize].is_some() {
            Some(format!(
                "{} holds a piece, but the move left it",
                BOARD.name(from)
            ))
        } else if mover.is_none() {
            Some(format!(
                "no piece on {}: the piece that moved or the one it lost to",
                BOARD.name(to)
            ))
        } else if mover.is_some_and(|p| p.side == start.to_move && !p.kind.movable()) {
            Some(format!(
                "the {} on {} never moves",
                mover.map_or("piece", |p| p.kind.name()),
                BOARD.name(to)
            ))
        } else {
            let piece = mover
                .filter(|p| p.side == start.to_move)
                .map_or(u16::MAX, |p| p.id);
            start.current[0] = Some(Step { piece, from, to });
            None
        };
        if let Some(message) = why {
            errors.push(
                problem(span, message, "not the first move of the turn in progress")
                    .help("TurnMove is the move the side to move has made in its turn, e.g. [TurnMove \"e3-e4\"]"),
            );
        }
    }
}

/// The position `st` as a position start: `Position`, `Volcanoes` (none for a game without
/// volcanoes), `TurnMove`, `NoReturn` and `Unmasked` tags and each side's pieces rank by rank from the top. The note says when
/// lost pieces had been unmasked, which a position does not carry.
pub(crate) fn write_position(st: &State) -> StartText {
    let name = |s: Square| BOARD.name(s);
    let squares = |keep: &dyn Fn(Square) -> bool| -> Vec<String> {
        (0..BOARD.squares() as Square)
            .filter(|&s| keep(s))
            .map(name)
            .collect()
    };
    let mut tags = vec![("Position".to_string(), side_word(st.to_move).to_string())];
    let volcanoes = squares(&|s| st.volcano[s as usize]);
    if !volcanoes.is_empty() {
        tags.push(("Volcanoes".into(), volcanoes.join(" ")));
    }
    if let Some(step) = st.current[0] {
        tags.push((
            "TurnMove".into(),
            format!("{}-{}", name(step.from), name(step.to)),
        ));
    }
    let back: Vec<String> = st
        .previous
        .iter()
        .flatten()
        .flatten()
        .filter(|s| st.board[s.to as usize].is_some_and(|p| p.id == s.piece))
        .map(|s| format!("{}-{}", name(s.to), name(s.from)))
        .collect();
    if !back.is_empty() {
        tags.push(("NoReturn".into(), back.join(" ")));
    }
    let unmasked = squares(&|s| {
        st.board[s as usize]
            .is_some_and(|p| st.unmasked[p.side.other().index()][p.id as usize].is_some())
    });
    if !unmasked.is_empty() {
        tags.push(("Unmasked".into(), unmasked.join(" ")));
    }
    let setups =
        [Side::First, Side::Second].map(|side| (side_word(side).to_string(), rows(st, side)));
    let lost_unmasked = st
        .lost
        .iter()
        .flatten()
        .any(|p| st.unmasked[p.side.other().index()][p.id as usize].is_some());
    let notes = if lost_unmasked {
        vec!["which lost pieces a Spy had unmasked is not carried: after this start they are shown as unknown to the opponent".to_string()]
    } else {
        Vec::new()
    };
    StartText {
        tags,
        setups: setups.into(),
        notes,
    }
}

/// The rows of `side`'s pieces, top rank first, only ranks where it has a piece.
fn rows(st: &State, side: Side) -> Vec<(u32, String)> {
    coords::rows(&BOARD, |s| {
        st.board[s as usize]
            .filter(|p| p.side == side)
            .map(|p| p.kind.letter())
    })
}
