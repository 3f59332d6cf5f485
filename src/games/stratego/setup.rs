//! Reading the Stratego-family setups from the log (rulings §1.1, §1.2; docs/log-format.md,
//! Setups): `setup red` / `setup blue` sections, one row per rank of the side's setup zone, the
//! letters of [`Kind::letter`]. Every problem is a `setup-invalid` finding, all of them at once.

use super::{Kind, Piece, Stratego, KINDS};
use crate::finding::{Code, Finding};
use crate::geometry::MAX_SQUARES;
use crate::record::{GameRecord, SetupBlock, SetupRow};
use crate::types::{Side, Span};

/// The letters a setup row may use, for messages.
pub(crate) const LETTERS: &str = "F B S 2 3 4 5 6 7 8 9 X, and . for an empty square";

/// The squares of a board, `rank * width + file`.
pub type Board = [Option<Piece>; MAX_SQUARES];

/// What one side's rows add up to: the pieces of the ruleset they name (wherever the row
/// stands), the squares whose piece cannot be known (unknown letters, gaps where the zone must
/// be full, short or missing rows), and the ranks given.
struct Tally {
    counts: [usize; 12],
    unknown_squares: usize,
    seen_rank: [bool; 16],
}

impl Stratego {
    /// Reads both setups (rulings §1.1/§1.2: counts, zones, lakes); every problem at once. Ids
    /// are given in the order the squares are read, Red's first.
    pub(crate) fn read_setups(&self, record: &GameRecord) -> Result<Board, Vec<Finding>> {
        let mut errors = Vec::new();
        let mut board = [None; MAX_SQUARES];
        let mut next_id = 0u16;
        for side in [Side::First, Side::Second] {
            self.read_side(record, side, &mut board, &mut next_id, &mut errors);
        }
        self.foreign_sections(record, &mut errors);
        if errors.is_empty() {
            Ok(board)
        } else {
            Err(errors)
        }
    }

    /// A setup section whose side word names no side of the ruleset is a problem.
    pub(crate) fn foreign_sections(&self, record: &GameRecord, errors: &mut Vec<Finding>) {
        for b in &record.setups {
            if b.side.value != "red" && b.side.value != "blue" {
                let game = self.ruleset.game.as_str();
                errors.push(self.setup_problem(
                    b.side.span,
                    format!("`{}` is not a side of {game}", b.side.value),
                    "expected red or blue",
                ));
            }
        }
    }

    /// A `setup-invalid` finding under the ruleset's rule source.
    pub(crate) fn setup_problem(&self, span: Span, message: String, label: &str) -> Finding {
        Finding::new(Code::SetupInvalid, span, message, self.ruleset.source)
            .label(label.to_string())
    }

    /// `ranks 1 to 4`: a side's setup zone in words.
    pub(crate) fn zone_text(&self, side: Side) -> String {
        let zone = &self.ruleset.zones[side.index()];
        format!("ranks {} to {}", zone.start() + 1, zone.end() + 1)
    }

    /// Reads the setup section of `side` into `board`: a missing or repeated section, each row,
    /// the ranks the zone lacks and the piece counts.
    fn read_side(
        &self,
        record: &GameRecord,
        side: Side,
        board: &mut Board,
        next_id: &mut u16,
        errors: &mut Vec<Finding>,
    ) {
        let Some(block) = self.side_section(record, side, errors) else {
            errors.push(self.missing_setup(record, side));
            return;
        };
        let mut tally = Tally {
            counts: [0; 12],
            unknown_squares: 0,
            seen_rank: [false; 16],
        };
        for row in &block.rows {
            self.read_row(row, side, &mut tally, board, next_id, errors);
        }
        self.check_ranks_and_counts(block, side, &mut tally, errors);
    }

    /// The first setup section of `side`; every further one is a problem.
    pub(crate) fn side_section<'r>(
        &self,
        record: &'r GameRecord,
        side: Side,
        errors: &mut Vec<Finding>,
    ) -> Option<&'r SetupBlock> {
        let word = self.side_word(side);
        let mut blocks = record.setups.iter().filter(|b| b.side.value == word);
        let block = blocks.next()?;
        for extra in blocks {
            errors.push(
                self.setup_problem(
                    extra.side.span,
                    format!("a second setup for {}", self.side_name(side)),
                    "duplicate setup section",
                )
                .with_label(block.side.span, "first setup here")
                .help("give each side's setup once"),
            );
        }
        Some(block)
    }

    /// The finding for a side without a setup section, at the last tag.
    fn missing_setup(&self, record: &GameRecord, side: Side) -> Finding {
        let word = self.side_word(side);
        let zone = &self.ruleset.zones[side.index()];
        let at = record
            .tags
            .last()
            .map_or(Span::new(record.span.start, record.span.start), |t| t.span);
        self.setup_problem(
            at,
            format!("no setup for {}", self.side_name(side)),
            &format!("a `setup {word}` section was expected after the tags"),
        )
        .help(format!(
            "write `setup {word}` and one row per rank of {}, e.g. `{} {}`",
            self.zone_text(side),
            zone.end() + 1,
            ".".repeat(self.geometry().width as usize)
        ))
    }

    /// Reads one row of `side`'s setup: counts its letters into `tally` (whatever else is wrong
    /// with it), then checks its rank and width and places its pieces.
    fn read_row(
        &self,
        row: &SetupRow,
        side: Side,
        tally: &mut Tally,
        board: &mut Board,
        next_id: &mut u16,
        errors: &mut Vec<Finding>,
    ) {
        let r = &self.ruleset;
        let g = r.geometry;
        let mut len = 0;
        for c in row.cells.value.chars() {
            len += 1;
            match Kind::from_letter(c) {
                Some(k) if r.has(k) => tally.counts[k.index()] += 1,
                None if c == '.' && !r.fill_zone => {}
                _ => tally.unknown_squares += 1,
            }
        }
        tally.unknown_squares += (g.width as usize).saturating_sub(len);
        let written = row.rank.value;
        let rank0 = written.wrapping_sub(1);
        let zone = &r.zones[side.index()];
        if written == 0 || !zone.contains(&(rank0.min(255) as u8)) || rank0 > 255 {
            let name = self.side_name(side);
            errors.push(
                self.setup_problem(
                    row.rank.span,
                    format!("rank {written} is outside {name}'s setup zone"),
                    &format!("{name} sets up on {}", self.zone_text(side)),
                )
                .help("label each row with a rank of the own setup zone"),
            );
            return;
        }
        if std::mem::replace(&mut tally.seen_rank[rank0 as usize], true) {
            errors.push(
                self.setup_problem(
                    row.rank.span,
                    format!("rank {written} is given twice"),
                    "second row for this rank",
                )
                .help("give each rank of the setup zone once"),
            );
            return;
        }
        if len != g.width as usize {
            errors.push(
                self.setup_problem(
                    row.cells.span,
                    format!(
                        "rank {written} has {len} squares, the board has {}",
                        g.width
                    ),
                    &format!("expected {} characters, one per file", g.width),
                )
                .help(format!("letters: {LETTERS}")),
            );
            return;
        }
        self.place_row(row, side, rank0 as u8, board, next_id, errors);
    }

    /// Places the pieces of a row of the right rank and width: every square's letter is checked
    /// (an empty square where the zone must be full, an unknown letter, a piece the ruleset does
    /// not have, a piece on a lake).
    fn place_row(
        &self,
        row: &SetupRow,
        side: Side,
        rank0: u8,
        board: &mut Board,
        next_id: &mut u16,
        errors: &mut Vec<Finding>,
    ) {
        let r = &self.ruleset;
        let g = r.geometry;
        for (file, (off, c)) in row.cells.value.char_indices().enumerate() {
            let at = row.cells.span.start + off;
            let cspan = Span::new(at, at + c.len_utf8());
            let sq = g
                .square(file as i32, rank0 as i32)
                .expect("zone ranks and checked width are on the board");
            let problem = match Kind::from_letter(c) {
                None if c == '.' => r.fill_zone.then(|| {
                    self.setup_problem(
                        cspan,
                        format!(
                            "empty square {} in {}'s setup",
                            g.name(sq),
                            self.side_name(side)
                        ),
                        "every square of the setup zone must hold a piece",
                    )
                    .help(format!(
                        "{} fills all of {}",
                        r.game.as_str(),
                        self.zone_text(side)
                    ))
                }),
                None => Some(
                    self.setup_problem(
                        cspan,
                        format!("unknown piece letter `{}`", c.escape_debug()),
                        "not a piece letter",
                    )
                    .help(format!("letters: {LETTERS}")),
                ),
                Some(kind) if !r.has(kind) => Some(
                    self.setup_problem(
                        cspan,
                        format!("{} has no {}", r.game.as_str(), kind.name()),
                        &format!("`{c}` is a {}", kind.name()),
                    )
                    .help("see the ruleset's piece table in docs/log-format.md"),
                ),
                Some(_) if self.is_lake(sq) => Some(self.setup_problem(
                    cspan,
                    format!("piece on the lake {}", g.name(sq)),
                    "lakes stay empty",
                )),
                Some(kind) => {
                    board[sq as usize] = Some(Piece {
                        side,
                        kind,
                        id: *next_id,
                        revealed: false,
                    });
                    *next_id += 1;
                    None
                }
            };
            errors.extend(problem);
        }
    }

    /// The ranks a full zone lacks (classic, Veldslag) and the piece counts of a side. A surplus
    /// is always a problem of its own; a shortage is reported only when no unknown square could
    /// explain it (that square's own finding says why).
    fn check_ranks_and_counts(
        &self,
        block: &SetupBlock,
        side: Side,
        tally: &mut Tally,
        errors: &mut Vec<Finding>,
    ) {
        let r = &self.ruleset;
        let name = self.side_name(side);
        if r.fill_zone {
            let missing: Vec<String> = r.zones[side.index()]
                .clone()
                .filter(|&k| !tally.seen_rank[k as usize])
                .map(|k| (k + 1).to_string())
                .collect();
            if !missing.is_empty() {
                tally.unknown_squares += missing.len() * r.geometry.width as usize;
                errors.push(
                    self.setup_problem(
                        block.side.span,
                        format!("{name}'s setup has no row for rank {}", missing.join(", ")),
                        "incomplete setup",
                    )
                    .help(format!(
                        "{} fills all of {}",
                        r.game.as_str(),
                        self.zone_text(side)
                    )),
                );
            }
        }
        let wrong: Vec<String> = KINDS
            .iter()
            .filter(|k| {
                let (have, want) = (tally.counts[k.index()], r.counts[k.index()] as usize);
                r.has(**k) && (have > want || (have < want && tally.unknown_squares == 0))
            })
            .map(|k| {
                format!(
                    "{} {} (should be {})",
                    tally.counts[k.index()],
                    k.name(),
                    r.counts[k.index()]
                )
            })
            .collect();
        if !wrong.is_empty() {
            errors.push(
                self.setup_problem(
                    block.span,
                    format!("{name}'s setup has the wrong pieces: {}", wrong.join(", ")),
                    "piece counts differ from the ruleset",
                )
                .help(format!(
                    "{} has {} pieces a side; see docs/log-format.md for the table",
                    r.game.as_str(),
                    r.army_size()
                )),
            );
        }
    }
}
