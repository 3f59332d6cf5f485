//! Reading a Spionage start position from the log (rulings §2; docs/log-format.md, Spionage):
//! the `setup white` / `setup black` sections, the `Volcanoes` tag, and the tags that would ask
//! for a small (8x8) board arbiter does not judge.

use super::pieces::{Kind, ARMY, KINDS, LETTERS};
use super::{Piece, SOURCE};
use crate::finding::{Code, Finding};
use crate::geometry::{Geometry, Square, MAX_SQUARES};
use crate::record::{GameRecord, SetupBlock, SetupRow, Tag};
use crate::rulebook::Rule;
use crate::types::Side;
use crate::types::Span;

/// The 10x10 board: files a–j, ranks 1–10.
pub const BOARD: Geometry = Geometry {
    width: 10,
    height: 10,
    rank_base: 1,
};

/// Setup ranks (0-based): White 1–3, Black 8–10 (rulings §2).
pub const ZONES: [std::ops::RangeInclusive<u8>; 2] = [0..=2, 7..=9];

/// The number of volcanoes a normal game has; any other count is `setup-unusual`.
pub const USUAL_VOLCANOES: usize = 4;

/// The setup section's side word: `white` or `black`.
pub fn side_word(side: Side) -> &'static str {
    match side {
        Side::First => "white",
        Side::Second => "black",
    }
}

/// `White` or `Black`: the registry's side names of Spionage.
pub(super) fn side_name(side: Side) -> &'static str {
    crate::types::GameId::Spionage.side_names()[side.index()]
}

fn zone_of(sq: Square) -> Option<Side> {
    let r = BOARD.rank(sq);
    [Side::First, Side::Second]
        .into_iter()
        .find(|s| ZONES[s.index()].contains(&r))
}

fn zone_text(side: Side) -> String {
    let z = &ZONES[side.index()];
    format!("ranks {} to {}", z.start() + 1, z.end() + 1)
}

/// Reads the `Volcanoes` tag: square names separated by white space or commas. Bad names,
/// repeated squares and volcanoes inside a setup zone are `setup-invalid` (in `errors`); a count
/// other than [`USUAL_VOLCANOES`], a missing tag included, is `setup-unusual` (in `warnings`),
/// judged only when every name was good.
pub fn read_volcanoes(
    record: &GameRecord,
    errors: &mut Vec<Finding>,
    warnings: &mut Vec<Finding>,
) -> [bool; MAX_SQUARES] {
    let mut volcano = [false; MAX_SQUARES];
    let Some(tag) = record.tag("Volcanoes") else {
        let at = record
            .tag("Game")
            .map_or(Span::new(record.span.start, record.span.start), |t| t.span);
        warnings.push(
            Finding::new(
                Code::SetupUnusual,
                at,
                "no Volcanoes tag: the game is judged without volcanoes",
                SOURCE,
            )
            .label("a Spionage game normally has 4 volcanoes")
            .help("name the volcano squares, e.g. [Volcanoes \"d5 e6 f4 g7\"]"),
        );
        return volcano;
    };
    let mut count = 0;
    let errors_before = errors.len();
    for (span, word) in crate::rules::coords::tag_words(tag) {
        match volcano_square(word, span, &volcano) {
            Ok(sq) => {
                volcano[sq as usize] = true;
                count += 1;
            }
            Err(f) => errors.push(f),
        }
    }
    if count != USUAL_VOLCANOES && errors.len() == errors_before {
        warnings.push(
            Finding::new(
                Code::SetupUnusual,
                tag.value.span,
                format!("{count} volcanoes where a Spionage game has {USUAL_VOLCANOES}"),
                SOURCE,
            )
            .label(format!("{count} volcano squares"))
            .help("legal, but check the Volcanoes tag against the game"),
        );
    }
    volcano
}

/// The square a word of the `Volcanoes` tag (at `span`) names, or why it cannot be a volcano:
/// not a square, named before (`volcano`), inside a setup zone.
fn volcano_square(word: &str, span: Span, volcano: &[bool]) -> Result<Square, Finding> {
    let Some(sq) = parse_square(word) else {
        return Err(problem(
            span,
            format!("`{}` is not a square", word.escape_debug()),
            "expected a square a1 to j10",
        )
        .help("name the volcano squares, e.g. [Volcanoes \"d5 e6 f4 g7\"]"));
    };
    if volcano[sq as usize] {
        return Err(problem(
            span,
            format!("volcano {} is named twice", BOARD.name(sq)),
            "repeated square",
        )
        .help("name each volcano square once"));
    }
    if let Some(side) = zone_of(sq) {
        return Err(problem(
            span,
            format!(
                "volcano {} is inside {}'s setup zone",
                BOARD.name(sq),
                side_name(side)
            ),
            &format!("{} sets up on {}", side_name(side), zone_text(side)),
        )
        .help("volcanoes stand on ranks 4 to 7"));
    }
    Ok(sq)
}

/// Reads `e5`, `j10` (case-insensitive) on the 10x10 board.
pub fn parse_square(word: &str) -> Option<Square> {
    crate::rules::coords::parse_square(&BOARD, word)
}

/// Reads both setups (rulings §2: 30 pieces a side filling ranks 1–3 and 8–10, the counts of
/// [`Kind::count`]). Every problem is reported at once in `errors`; a side's piece counts are
/// judged only when its rows are otherwise sound (a broken row would make them wrong anyway).
/// Piece ids: White's pieces 0–29 and Black's 30–59, each in the order the rows are written.
pub fn read_setups(record: &GameRecord, errors: &mut Vec<Finding>) -> [Option<Piece>; MAX_SQUARES] {
    let mut board = [None; MAX_SQUARES];
    for side in [Side::First, Side::Second] {
        let word = side_word(side);
        let mut blocks = record.setups.iter().filter(|b| b.side.value == word);
        let Some(block) = blocks.next() else {
            let at = record
                .tags
                .last()
                .map_or(Span::new(record.span.start, record.span.start), |t| t.span);
            let z = &ZONES[side.index()];
            errors.push(
                Finding::new(
                    Code::SetupInvalid,
                    at,
                    format!("no setup for {}", side_name(side)),
                    SOURCE,
                )
                .label(format!(
                    "a `setup {word}` section was expected after the tags"
                ))
                .help(format!(
                    "write `setup {word}` and one row per rank of {}, e.g. `{} 1234S5MBH1`",
                    zone_text(side),
                    z.end() + 1
                )),
            );
            continue;
        };
        for extra in blocks {
            errors.push(
                Finding::new(
                    Code::SetupInvalid,
                    extra.side.span,
                    format!("a second setup for {}", side_name(side)),
                    SOURCE,
                )
                .label("duplicate setup section")
                .with_label(block.side.span, "first setup here")
                .help("give each side's setup once"),
            );
        }
        read_block(block, side, &mut board, errors);
    }
    for b in &record.setups {
        if b.side.value != "white" && b.side.value != "black" {
            errors.push(
                Finding::new(
                    Code::SetupInvalid,
                    b.side.span,
                    format!("`{}` is not a side of Spionage", b.side.value),
                    SOURCE,
                )
                .label("expected white or black"),
            );
        }
    }
    board
}

/// A `setup-invalid` finding under rulings §2.
fn problem(span: Span, message: String, label: &str) -> Finding {
    Finding::new(Code::SetupInvalid, span, message, SOURCE).label(label.to_string())
}

/// Reads one side's setup section into `board`: each row, the ranks the zone lacks, and the
/// piece counts (judged only when the rows were otherwise sound).
fn read_block(
    block: &SetupBlock,
    side: Side,
    board: &mut [Option<Piece>; MAX_SQUARES],
    errors: &mut Vec<Finding>,
) {
    let zone = &ZONES[side.index()];
    let name = side_name(side);
    let mut counts = [0u8; KINDS.len()];
    let mut seen_rank = [false; BOARD.height as usize];
    let mut next_id = (side.index() * ARMY) as u16;
    let errors_before = errors.len();
    for row in &block.rows {
        match row_rank(row, side, &mut seen_rank) {
            Ok(rank0) => {
                let mut place = |sq: Square, kind: Kind| {
                    counts[kind.index()] += 1;
                    board[sq as usize] = Some(Piece {
                        side,
                        kind,
                        id: next_id,
                    });
                    next_id += 1;
                };
                read_cells(row, rank0, name, &mut place, errors);
            }
            Err(f) => errors.push(f),
        }
    }
    let missing: Vec<String> = zone
        .clone()
        .filter(|&r| !seen_rank[r as usize])
        .map(|r| (r + 1).to_string())
        .collect();
    if !missing.is_empty() {
        errors.push(
            problem(
                block.side.span,
                format!("{name}'s setup has no row for rank {}", missing.join(", ")),
                "incomplete setup",
            )
            .help(format!("30 pieces fill all of {}", zone_text(side))),
        );
    }
    if errors.len() == errors_before {
        errors.extend(wrong_counts(block, name, &counts));
    }
}

/// The 0-based rank of a setup row, or the finding that the row cannot be read: a rank outside
/// the side's zone, a rank given twice, a row of the wrong width.
fn row_rank(row: &SetupRow, side: Side, seen_rank: &mut [bool]) -> Result<u8, Finding> {
    let written = row.rank.value;
    let rank0 = written.wrapping_sub(1);
    let name = side_name(side);
    if written == 0 || rank0 > u8::MAX as u32 || !ZONES[side.index()].contains(&(rank0 as u8)) {
        return Err(problem(
            row.rank.span,
            format!("rank {written} is outside {name}'s setup zone"),
            &format!("{name} sets up on {}", zone_text(side)),
        )
        .help("label each row with a rank of the own setup zone"));
    }
    if std::mem::replace(&mut seen_rank[rank0 as usize], true) {
        return Err(problem(
            row.rank.span,
            format!("rank {written} is given twice"),
            "second row for this rank",
        )
        .help("give each rank of the setup zone once"));
    }
    let n = row.cells.value.chars().count();
    if n != BOARD.width as usize {
        return Err(problem(
            row.cells.span,
            format!("rank {written} has {n} squares, the board has 10"),
            "expected 10 characters, one per file a to j",
        )
        .help(format!("letters: {LETTERS}")));
    }
    Ok(rank0 as u8)
}

/// Reads the squares of a sound row on rank `rank0` of the setup of `name`: each piece goes to
/// `place`; an empty square or an unknown letter is a finding.
fn read_cells(
    row: &SetupRow,
    rank0: u8,
    name: &str,
    place: &mut impl FnMut(Square, Kind),
    errors: &mut Vec<Finding>,
) {
    for (file, (off, c)) in row.cells.value.char_indices().enumerate() {
        let at = row.cells.span.start + off;
        let cspan = Span::new(at, at + c.len_utf8());
        let sq = BOARD
            .square(file as i32, rank0 as i32)
            .expect("zone rank and checked width are on the board");
        let Some(kind) = Kind::from_letter(c) else {
            let (message, label) = if c == '.' {
                (
                    format!("empty square {} in {name}'s setup", BOARD.name(sq)),
                    "every square of the setup zone holds a piece",
                )
            } else {
                (
                    format!("unknown piece letter `{}`", c.escape_debug()),
                    "not a Spionage piece letter",
                )
            };
            errors.push(problem(cspan, message, label).help(format!("letters: {LETTERS}")));
            continue;
        };
        place(sq, kind);
    }
}

/// The finding for a setup whose piece counts differ from the army of rulings §2, if they do.
fn wrong_counts(block: &SetupBlock, name: &str, counts: &[u8]) -> Option<Finding> {
    let wrong: Vec<String> = KINDS
        .iter()
        .filter(|k| counts[k.index()] != k.count())
        .map(|k| {
            format!(
                "{} {} (should be {})",
                counts[k.index()],
                k.name(),
                k.count()
            )
        })
        .collect();
    (!wrong.is_empty()).then(|| {
        problem(
            block.span,
            format!("{name}'s setup has the wrong pieces: {}", wrong.join(", ")),
            "piece counts differ from the Spionage army",
        )
        .help("each side has 5 Corporals, 4 Lieutenants, 3 Captains, 2 Colonels, 2 Generals, 5 Spies, 4 Miners, 4 Mines and 1 Headquarters")
    })
}

/// Words in a `Game`, `Variant` or `Board` tag that name a small Spionage board.
const SMALL_WORDS: [&str; 4] = ["klein", "small", "mini", "8x8"];

fn squash(s: &str) -> String {
    s.chars()
        .filter(|c| c.is_alphanumeric())
        .flat_map(char::to_lowercase)
        .collect()
}

/// True when a `Game` tag value names a small (8x8) Spionage variant (jijbent's "Klein
/// Spionage", "Klein snelspionage", or any name with `small`, `mini` or `8x8` next to
/// `spionage`).
pub fn names_small_spionage(game: &str) -> bool {
    let s = squash(game);
    s.contains("spionage") && SMALL_WORDS.iter().any(|w| s.contains(w))
}

/// The `unsupported-game` finding for a small Spionage variant named by `tag` (rulings §2:
/// never guess a piece set no source gives).
pub fn small_variant_finding(tag: &Tag) -> Finding {
    Finding::new(
        Code::UnsupportedGame,
        tag.value.span,
        "small (8x8) Spionage is not supported: its piece set is not defined",
        Rule::SmallSpionage,
    )
    .label(format!(
        "`{}` names the 8x8 board, for which no source gives the pieces",
        tag.value.value
    ))
    .help("arbiter judges spionage and spionage-snel on the 10x10 board with 30 pieces a side")
}

/// The tag of a `spionage` record that asks for a small board (`[Variant "klein"]`,
/// `[Board "8x8"]`), if any.
pub fn small_variant_tag(record: &GameRecord) -> Option<&Tag> {
    ["Variant", "Board"]
        .iter()
        .filter_map(|n| record.tag(n))
        .find(|t| {
            let s = squash(&t.value.value);
            SMALL_WORDS.iter().any(|w| s.contains(w))
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn squares() {
        assert_eq!(parse_square("a1"), Some(0));
        assert_eq!(parse_square("J10"), Some(99));
        assert_eq!(parse_square("k1"), None);
        assert_eq!(parse_square("a11"), None);
        assert_eq!(parse_square("a0"), None);
        assert_eq!(parse_square("a"), None);
        assert_eq!(parse_square("a1x"), None);
        assert_eq!(parse_square("é1"), None);
    }

    #[test]
    fn small_names() {
        assert!(names_small_spionage("Klein Spionage"));
        assert!(names_small_spionage("klein-snelspionage"));
        assert!(names_small_spionage("spionage 8x8"));
        assert!(!names_small_spionage("spionage"));
        assert!(!names_small_spionage("klein"));
    }
}
