//! Every variation judged, each ply once (`rules::tree`), on random Xiangqi trees: lines of
//! random legal play and of play driven into repetitions, branching anywhere off any line,
//! with illegal moves mixed in. Three ways to judge a tree must agree:
//! - the tree replay with undo (Xiangqi takes plies back: one state walks the tree);
//! - the tree replay with copies (the same engine behind a wrapper that cannot undo);
//! - every line judged on its own from the start ([`GameRecord::line_record`]), keeping the
//!   findings on its own plies: a finding on a ply a variation shares with its parent line is
//!   the parent's, reported once.

use arbiter::games::xiangqi::random::{random_game, repetition_game, Rng};
use arbiter::games::xiangqi::{Move, MoveList, Position, State, Xiangqi};
use arbiter::pipeline::{check_record, Options};
use arbiter::record::{GameRecord, MoveRecord, Span, Tag, Variation};
use arbiter::rules::tree::replay_tree;
use arbiter::rules::{Applied, GameId, Outcome, Overrides, Parameters, RepetitionMode, Rules};
use arbiter::types::Spanned;
use arbiter::Finding;
use proptest::prelude::*;

/// The Xiangqi engine without undo: the tree replay copies its state at branch points.
struct NoUndo(Xiangqi);

impl Rules for NoUndo {
    type State = State;
    fn start(
        &self,
        record: &GameRecord,
        params: &Parameters,
        findings: &mut Vec<Finding>,
    ) -> Result<State, Vec<Finding>> {
        self.0.start(record, params, findings)
    }
    fn key(&self, state: &State) -> u64 {
        self.0.key(state)
    }
    fn play(&self, state: &mut State, mv: &MoveRecord, number: u32) -> Result<Applied, Finding> {
        self.0.play(state, mv, number)
    }
    fn outcome(&self, state: &State, last: u32) -> Option<Outcome> {
        self.0.outcome(state, last)
    }
    fn view(&self, state: &State) -> arbiter::view::BoardView {
        self.0.view(state)
    }
    fn game(&self) -> GameId {
        GameId::Xiangqi
    }
    fn default_parameters(&self) -> Parameters {
        self.0.default_parameters()
    }
}

/// Plies `moves` (ICCS) numbered from `first` (0-based turn of the game).
fn plies(moves: &[String], first: usize) -> Vec<MoveRecord> {
    moves
        .iter()
        .enumerate()
        .map(|(i, m)| MoveRecord::unlocated(m, first + i))
        .collect()
}

/// The position after line `n`'s plies up to `upto` (from the start), when they are legal.
fn position_at(rec: &GameRecord, n: usize, upto: usize) -> Option<Position> {
    let mut pos = Position::start();
    let mut legal = MoveList::new();
    for m in rec.line_plies(n).into_iter().take(upto) {
        let c = m.coord()?;
        let mv = legal_move(&pos, &mut legal, c.from, c.to)?;
        pos.make(mv);
    }
    Some(pos)
}

fn legal_move(
    pos: &Position,
    legal: &mut MoveList,
    from: (u8, u32),
    to: (u8, u32),
) -> Option<Move> {
    pos.legal_moves(legal);
    legal.iter().copied().find(|m| {
        let name = m.iccs();
        let b = name.as_bytes();
        (
            b[0] - b'a',
            (b[1] - b'0') as u32,
            b[2] - b'a',
            (b[3] - b'0') as u32,
        ) == (from.0, from.1, to.0, to.1)
    })
}

/// Moves from `pos`: random play or play into repetitions, at most `max` plies, the `bad`-th
/// one (if any) replaced by a move no position allows (a0a0 is no move).
fn line_from(pos: &Position, rng: &mut Rng, max: usize, bad: Option<usize>) -> Vec<String> {
    let seed = rng.next_u64();
    let moves = if rng.below(2) == 0 {
        random_game(pos, seed, max)
    } else {
        repetition_game(pos, seed, max)
    };
    let mut out: Vec<String> = moves.iter().map(|m| m.iccs()).collect();
    if let Some(b) = bad.filter(|&b| b < out.len()) {
        out[b] = ["a0a0", "e0e2", "b9b9", "h2h9"][rng.below(4)].to_string();
    }
    out
}

/// A random tree: a main line and `variations` lines, each branching off a random ply of a
/// random earlier line.
fn tree(seed: u64, variations: usize) -> GameRecord {
    let mut rng = Rng::new(seed);
    let main_bad = (rng.below(4) == 0).then(|| rng.below(40));
    let max = 10 + rng.below(50);
    let main = line_from(&Position::start(), &mut rng, max, main_bad);
    let mut rec = GameRecord {
        tags: vec![Tag {
            name: Spanned::new("Game".into(), Span::default()),
            value: Spanned::new("xiangqi".into(), Span::default()),
            span: Span::default(),
        }],
        moves: plies(&main, 0),
        ..GameRecord::default()
    };
    for _ in 0..variations {
        let parent = rng.below(rec.variations.len() + 1);
        let (start, len) = match parent {
            0 => (0, rec.moves.len()),
            p => (
                rec.variations[p - 1].start as usize,
                rec.variations[p - 1].moves.len(),
            ),
        };
        if len == 0 {
            continue;
        }
        let at = start + rng.below(len);
        let bad = (rng.below(5) == 0).then(|| rng.below(20));
        let moves = match position_at(&rec, parent, at) {
            Some(pos) => {
                let max = 1 + rng.below(30);
                line_from(&pos, &mut rng, max, bad)
            }
            // Past an illegal move: any moves.
            None => vec!["h2e2".to_string(), "h9g7".to_string()],
        };
        if moves.is_empty() {
            continue;
        }
        rec.variations.push(Variation {
            parent,
            start: at as u32,
            moves: plies(&moves, at),
            span: Span::default(),
        });
    }
    rec.turns = rec.moves.len();
    rec
}

/// A finding as compared: line, code, ply, message.
fn key(f: &Finding) -> (usize, String, Option<u32>, String) {
    (f.line, f.code.to_string(), f.ply, f.message.clone())
}

/// Every line judged on its own, its findings on its own plies (the main line: all of them).
fn line_by_line(rec: &GameRecord, opts: &Options) -> Vec<(usize, String, Option<u32>, String)> {
    let mut out = Vec::new();
    for n in 0..=rec.variations.len() {
        let start = if n == 0 {
            0
        } else {
            rec.variations[n - 1].start
        };
        let line = rec.line_record(n).expect("a line");
        let report = check_record("t", &line, opts);
        out.extend(
            report
                .findings
                .iter()
                .filter(|f| n == 0 || f.ply.is_some_and(|p| p > start))
                .map(|f| (n, f.code.to_string(), f.ply, f.message.clone())),
        );
    }
    out.sort();
    out
}

fn options(claim: bool) -> Options {
    Options {
        overrides: Overrides {
            game: Some(GameId::Xiangqi),
            repetition: Some(if claim {
                RepetitionMode::Claim
            } else {
                RepetitionMode::Ends
            }),
            ..Overrides::default()
        },
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn the_tree_judges_every_line_as_the_lines_judged_one_by_one(
        seed in any::<u64>(),
        variations in 0usize..12,
        claim in any::<bool>(),
    ) {
        let rec = tree(seed, variations);
        let opts = options(claim);
        let report = check_record("t", &rec, &opts);
        let mut got: Vec<_> = report.findings.iter().map(key).collect();
        got.sort();
        prop_assert_eq!(&got, &line_by_line(&rec, &opts));
        prop_assert_eq!(report.lines, rec.variations.len() + 1);
    }

    #[test]
    fn taking_plies_back_and_copying_the_state_give_the_same_replay(
        seed in any::<u64>(),
        variations in 0usize..12,
        claim in any::<bool>(),
    ) {
        let rec = tree(seed, variations);
        let engine = Xiangqi::new();
        let mut params = engine.default_parameters();
        if claim {
            params.repetition = Some(RepetitionMode::Claim);
        }
        let undo = replay_tree(&engine, &rec, &params);
        let copy = replay_tree(&NoUndo(engine), &rec, &params);
        prop_assert_eq!(&undo.findings, &copy.findings);
        prop_assert_eq!(&undo.lines, &copy.lines);
        prop_assert_eq!(&undo.main.findings, &copy.main.findings);
        prop_assert_eq!(undo.main.plies.len(), copy.main.plies.len());
    }
}
