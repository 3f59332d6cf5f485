//! Properties of the Stratego-family engine (rulings §1.1–1.3) on random games.
//!
//! A random game: a random valid setup for both sides (classic and Veldslag fill the zone,
//! Barrage and Duel scatter their pieces in it), then moves drawn from
//! [`Stratego::legal_moves`] until the game ends on the board or the drawn choices run out,
//! written as a native log with `[TwoSquares "0"]` and `[MoreSquares "off"]` (random play
//! shuttles and chases freely; those rules have their own fixtures in `fixtures/history/`).
//!
//! - Such a log replays with no finding, the same number of plies and the engine's outcome;
//!   the only findings are Veldslag's no-capture information (rulings §1.6), which long random
//!   games reach, and which the generator predicts on its own from the attacks it played.
//! - Replacing any one ply with a move `legal_moves` does not offer is caught as
//!   `illegal-move` at exactly that ply, and the replay stops there.
//! - In positions of such games, the engine's `play` accepts exactly the moves `legal_moves`
//!   offers (two independent readings of §1.1: the generator and the validator).
//! - After every ply of such a game the incremental position key equals the key computed
//!   from scratch ([`Stratego::full_key`]).
//! - `convert` of the parsed log parses back to the same replay (plies, squares, pieces, keys,
//!   outcome), and converting that again prints the same text.

use arbiter::convert::convert_one;
use arbiter::games::stratego::{State, Stratego, KINDS};
use arbiter::geometry::zobrist;
use arbiter::pipeline::{self, check_source, GameReport, Options, Source};
use arbiter::record::MoveRecord;
use arbiter::rules::{GameId, Outcome, Overrides, Rules, Side};
use proptest::prelude::*;

const GAMES: [GameId; 4] = [
    GameId::Stratego,
    GameId::Barrage,
    GameId::Duel,
    GameId::Veldslag,
];

/// A deterministic random stream from a proptest seed: the crate's own splitmix64
/// ([`zobrist`]) over a counter.
pub(crate) struct Rng(pub(crate) u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(1);
        zobrist(self.0)
    }
    pub(crate) fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    /// Fisher-Yates.
    fn shuffle<T>(&mut self, v: &mut [T]) {
        for i in (1..v.len()).rev() {
            let j = self.below(i + 1);
            v.swap(i, j);
        }
    }
}

/// A random valid setup section for `side`: the whole army in random places of the zone.
pub(crate) fn setup_section(engine: &Stratego, side: Side, rng: &mut Rng) -> String {
    let r = &engine.ruleset;
    let width = r.geometry.width as usize;
    let zone = r.zones[side.index()].clone();
    let mut army: Vec<char> = KINDS
        .iter()
        .flat_map(|k| std::iter::repeat_n(k.letter(), r.counts[k.index()] as usize))
        .collect();
    let mut cells = vec!['.'; zone.len() * width];
    let mut places: Vec<usize> = (0..cells.len()).collect();
    rng.shuffle(&mut places);
    rng.shuffle(&mut army);
    for (&at, piece) in places.iter().zip(army) {
        cells[at] = piece;
    }
    let word = if side == Side::First { "red" } else { "blue" };
    let mut out = format!("setup {word}\n");
    for (row, rank) in zone.clone().enumerate().rev() {
        let line: String = cells[row * width..(row + 1) * width].iter().collect();
        out.push_str(&format!("{:>3} {line}\n", rank + 1));
    }
    out
}

/// One random game.
pub(crate) struct Game {
    game: GameId,
    /// Tags (without Result) and both setups.
    head: String,
    /// One token per ply: `a4-a5`, `a4xa7`, `a4xa7(2:F)`.
    pub(crate) moves: Vec<String>,
    /// The position before each ply (index = ply - 1).
    before: Vec<State>,
    engine: Stratego,
    outcome: Option<Outcome>,
    /// Veldslag's no-capture infos (rulings §1.6) as (code, ply): 100 and 160 plies without
    /// an attack, counted again after every attack.
    no_capture: Vec<(String, Option<u32>)>,
}

impl Game {
    /// The native log with `moves` as its movetext.
    pub(crate) fn log(&self, moves: &[String]) -> String {
        let result = self.outcome.as_ref().map_or("*", |o| o.result.as_str());
        let mut text = format!("[Result \"{result}\"]\n{}\n", self.head);
        for (i, m) in moves.iter().enumerate() {
            if i % 2 == 0 {
                text.push_str(&format!("{}. ", i / 2 + 1));
            }
            text.push_str(m);
            text.push(if i % 10 == 9 { '\n' } else { ' ' });
        }
        text.push_str(result);
        text.push('\n');
        text
    }
}

/// Plays a random game of `GAMES[which]`: `seed` draws the setups (and Veldslag's first
/// mover), `choices` the moves, one per ply, until the game ends or they run out.
pub(crate) fn random_game(which: usize, seed: u64, choices: &[u32]) -> Game {
    let game = GAMES[which];
    let engine = Stratego::new(game).expect("a Stratego-family game");
    let mut rng = Rng(seed);
    let mut head = format!(
        "[Game \"{}\"]\n[TwoSquares \"0\"]\n[MoreSquares \"off\"]\n",
        game.as_str()
    );
    if game == GameId::Veldslag && rng.below(2) == 1 {
        head.push_str("[FirstMove \"blue\"]\n");
    }
    head.push('\n');
    head.push_str(&setup_section(&engine, Side::Second, &mut rng));
    head.push_str(&setup_section(&engine, Side::First, &mut rng));
    let src = Source::from_bytes("head.arb", format!("{head}\n*\n").into_bytes());
    let record = pipeline::parse_source(&src).remove(0);
    let (params, _, _) = pipeline::parameters_for(&record, game, &Overrides::default())
        .unwrap_or_else(|f| panic!("parameters: {f:?}"));
    let mut st = engine
        .start(&record, &params, &mut Vec::new())
        .unwrap_or_else(|f| panic!("a random setup is valid: {f:?}\n{head}"));
    let g = engine.geometry();
    let mut moves = Vec::new();
    let mut before = Vec::new();
    let mut outcome = engine.outcome(&st, 0);
    let mut no_capture = Vec::new();
    let mut since_attack = 0;
    for &choice in choices {
        if outcome.is_some() {
            break;
        }
        let legal = engine.legal_moves(&st);
        let (from, to) = legal[choice as usize % legal.len()];
        let mut token = g.name(from);
        let ply = moves.len() as u32 + 1;
        match (st.board[from as usize], st.board[to as usize]) {
            (Some(a), Some(d)) => {
                since_attack = 0;
                token.push('x');
                token.push_str(&g.name(to));
                if choice & 0x100 != 0 {
                    token.push_str(&format!("({}:{})", a.kind.letter(), d.kind.letter()));
                }
            }
            _ => {
                token.push('-');
                token.push_str(&g.name(to));
                since_attack += 1;
                let code = match since_attack {
                    100 => "no-capture-50",
                    160 => "no-capture-80",
                    _ => "",
                };
                if game == GameId::Veldslag && !code.is_empty() {
                    no_capture.push((code.to_string(), Some(ply)));
                }
            }
        }
        before.push(st.clone());
        if let Err(f) = engine.play(&mut st, &MoveRecord::unlocated(&token, moves.len()), ply) {
            panic!(
                "legal_moves offered {token}, play refused it: {}",
                f.message
            );
        }
        // The incremental key equals the key computed from scratch after every ply.
        assert_eq!(
            st.key,
            engine.full_key(&st),
            "key after ply {ply} ({token})"
        );
        moves.push(token);
        outcome = engine.outcome(&st, ply);
    }
    Game {
        game,
        head,
        moves,
        before,
        engine,
        outcome,
        no_capture,
    }
}

/// A move the rules of §1.1 forbid in position `st`, as log text. Drawn from several kinds, so
/// that near-misses are common: any two squares; an own or enemy piece to any square in line
/// with it (a Scout over a lake or a piece, a long step of another piece, a step onto a lake
/// or an own piece, a Bomb or Flag moving); a diagonal step; a square off the board; a move
/// the position offers but written with `x` onto an empty square or with a combat annotation
/// the setup contradicts, or annotated although nothing is attacked.
fn illegal_move(engine: &Stratego, st: &State, rng: &mut Rng) -> String {
    let geo = engine.geometry();
    let legal = engine.legal_moves(st);
    let squares = geo.squares();
    let (w, h) = (geo.width as i32, geo.height as i32);
    let name = |s: u8| geo.name(s);
    let in_line = |from: u8, rng: &mut Rng| -> u8 {
        let (f, r) = (geo.file(from) as i32, geo.rank(from) as i32);
        loop {
            let n = 1 + rng.below(w.max(h) as usize - 1) as i32;
            let (df, dr) = [(0, 1), (0, -1), (1, 0), (-1, 0)][rng.below(4)];
            if let Some(t) = geo.square(f + df * n, r + dr * n) {
                return t;
            }
        }
    };
    loop {
        let candidate: Option<(u8, u8, String)> = match rng.below(8) {
            0 => {
                let (f, t) = (rng.below(squares) as u8, rng.below(squares) as u8);
                Some((f, t, format!("{}-{}", name(f), name(t))))
            }
            1..=3 => {
                let f = rng.below(squares) as u8;
                st.board[f as usize].map(|_| {
                    let t = in_line(f, rng);
                    (f, t, format!("{}-{}", name(f), name(t)))
                })
            }
            4 => {
                let f = rng.below(squares) as u8;
                let (df, dr) = [(1, 1), (1, -1), (-1, 1), (-1, -1)][rng.below(4)];
                geo.step(f, (df, dr))
                    .map(|t| (f, t, format!("{}-{}", name(f), name(t))))
            }
            5 => {
                let f = rng.below(squares) as u8;
                let off = match rng.below(3) {
                    0 => format!(
                        "{}{}",
                        (b'a' + geo.width) as char,
                        1 + rng.below(h as usize)
                    ),
                    1 => format!("{}0", (b'a' + rng.below(w as usize) as u8) as char),
                    _ => format!("{}{}", (b'a' + rng.below(w as usize) as u8) as char, h + 1),
                };
                return if rng.below(2) == 0 {
                    format!("{}-{off}", name(f))
                } else {
                    format!("{off}-{}", name(f))
                };
            }
            _ => {
                // A move the position offers, written so that the record contradicts it.
                let &(f, t) = &legal[rng.below(legal.len())];
                let a = st.board[f as usize].expect("a legal move starts on a piece");
                return match st.board[t as usize] {
                    None if rng.below(2) == 0 => format!("{}x{}", name(f), name(t)),
                    None => format!("{}-{}({}:F)", name(f), name(t), a.kind.letter()),
                    Some(d) => {
                        let wrong = KINDS
                            .iter()
                            .find(|k| **k != d.kind)
                            .expect("more than one kind");
                        format!(
                            "{}x{}({}:{})",
                            name(f),
                            name(t),
                            a.kind.letter(),
                            wrong.letter()
                        )
                    }
                };
            }
        };
        if let Some((f, t, text)) = candidate {
            if !legal.contains(&(f, t)) {
                return text;
            }
        }
    }
}

fn judge(text: &str) -> GameReport {
    let src = Source::from_bytes("random.arb", text.as_bytes().to_vec());
    let mut games = check_source(&src, &Options::default());
    assert_eq!(games.len(), 1, "one game in\n{text}");
    games.remove(0)
}

/// (code, ply) of every finding, in report order.
fn findings(g: &GameReport) -> Vec<(String, Option<u32>)> {
    g.findings
        .iter()
        .map(|f| (f.code.as_str().to_string(), f.ply))
        .collect()
}

/// The replay as the history checks see it: per ply mover, squares, piece, capture, key.
fn replay_shape(g: &GameReport) -> Vec<(Side, u8, u8, u16, bool, u64)> {
    g.replay
        .as_ref()
        .expect("a judged game keeps its replay")
        .plies
        .iter()
        .map(|p| (p.side, p.from, p.to, p.piece, p.capture, p.key))
        .collect()
}

fn game_strategy() -> impl Strategy<Value = (usize, u64, Vec<u32>)> {
    (
        0..GAMES.len(),
        any::<u64>(),
        prop::collection::vec(any::<u32>(), 0..1200),
    )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn random_legal_games_replay_with_no_finding((which, seed, choices) in game_strategy()) {
        let g = random_game(which, seed, &choices);
        let text = g.log(&g.moves);
        let report = judge(&text);
        prop_assert_eq!(findings(&report), g.no_capture.clone(), "{}", text);
        prop_assert_eq!(report.plies, g.moves.len());
        prop_assert_eq!(report.game, Some(g.game));
        prop_assert_eq!(&report.outcome, &g.outcome, "{}", text);
    }

    #[test]
    fn one_illegal_move_is_caught_at_its_ply(
        (which, seed, choices) in game_strategy(),
        at in any::<prop::sample::Index>(),
        pick in any::<u64>(),
    ) {
        let g = random_game(which, seed, &choices);
        prop_assume!(!g.moves.is_empty());
        let k = at.index(g.moves.len());
        let st = &g.before[k];
        let illegal = illegal_move(&g.engine, st, &mut Rng(pick));
        let mut moves = g.moves.clone();
        moves[k] = illegal.clone();
        let text = g.log(&moves);
        let report = judge(&text);
        // The no-capture infos of the plies before the illegal one, then the illegal move.
        let mut want: Vec<(String, Option<u32>)> = g
            .no_capture
            .iter()
            .filter(|(_, p)| p.is_some_and(|p| p <= k as u32))
            .cloned()
            .collect();
        want.push(("illegal-move".to_string(), Some(k as u32 + 1)));
        prop_assert_eq!(
            findings(&report),
            want,
            "ply {} replaced by {}:\n{}", k + 1, illegal, text
        );
        prop_assert_eq!(report.plies, k);
    }

    #[test]
    fn play_accepts_exactly_the_moves_legal_moves_offers(
        (which, seed, choices) in game_strategy(),
        at in prop::collection::vec(any::<prop::sample::Index>(), 1..6),
    ) {
        let g = random_game(which, seed, &choices);
        prop_assume!(!g.moves.is_empty());
        let squares = g.engine.geometry().squares() as u8;
        for i in at {
            let k = i.index(g.moves.len());
            let st = &g.before[k];
            let legal = g.engine.legal_moves(st);
            let mut accepted = Vec::new();
            for from in (0..squares).filter(|&f| st.board[f as usize].is_some_and(|p| p.side == st.to_move)) {
                for to in 0..squares {
                    let text = format!("{}-{}", g.engine.geometry().name(from), g.engine.geometry().name(to));
                    let mv = MoveRecord::unlocated(&text, k);
                    let mut after = st.clone();
                    match g.engine.play(&mut after, &mv, k as u32 + 1) {
                        Ok(_) => accepted.push((from, to)),
                        Err(f) => {
                            prop_assert_eq!(f.code.as_str(), "illegal-move", "{}: {}", text, f.message);
                            prop_assert_eq!(after.key, st.key, "{} left the position changed", text);
                        }
                    }
                }
            }
            let mut offered = legal.clone();
            offered.sort();
            prop_assert_eq!(accepted, offered, "ply {} of\n{}", k + 1, g.log(&g.moves));
        }
    }

    #[test]
    fn convert_then_parse_gives_the_same_replay((which, seed, choices) in game_strategy()) {
        let g = random_game(which, seed, &choices);
        let text = g.log(&g.moves);
        let src = Source::from_bytes("random.arb", text.clone().into_bytes());
        let record = pipeline::parse_source(&src).remove(0);
        let overrides = Overrides::default();
        let converted = convert_one(&record, &overrides, None).expect("written");

        let original = judge(&text);
        let again = judge(&converted);
        prop_assert_eq!(findings(&again), findings(&original), "{}", converted);
        prop_assert_eq!(again.plies, original.plies);
        prop_assert_eq!(replay_shape(&again), replay_shape(&original));
        prop_assert_eq!(&again.outcome, &original.outcome);
        prop_assert_eq!(&again.parameters, &original.parameters);
        prop_assert_eq!(
            again.replay.as_ref().map(|r| r.start_key),
            original.replay.as_ref().map(|r| r.start_key)
        );

        let src2 = Source::from_bytes("converted.arb", converted.clone().into_bytes());
        let record2 = pipeline::parse_source(&src2).remove(0);
        prop_assert_eq!(convert_one(&record2, &overrides, None).expect("written"), converted);
    }
}

/// The generator reaches every end of rulings §1.1 (so the properties above see them): over
/// fixed seeds, every ruleset has games won by a flag capture and by the opponent having no
/// legal move, and some games end with neither side able to move.
#[test]
fn random_games_reach_every_kind_of_end() {
    let mut neither = 0;
    for (which, game) in GAMES.iter().enumerate() {
        let mut reasons = std::collections::BTreeMap::new();
        for seed in 0..50u64 {
            let mut rng = Rng(!seed);
            let choices: Vec<u32> = (0..3000).map(|_| rng.next() as u32).collect();
            let g = random_game(which, seed, &choices);
            let reason = g
                .outcome
                .as_ref()
                .map_or("unfinished", |o| o.reason.as_str());
            *reasons.entry(reason).or_insert(0) += 1;
        }
        assert!(
            reasons.contains_key("flag-captured"),
            "{game:?}: {reasons:?}"
        );
        assert!(
            reasons.contains_key("no-legal-move"),
            "{game:?}: {reasons:?}"
        );
        neither += reasons.get("neither-can-move").copied().unwrap_or(0);
    }
    assert!(
        neither > 0,
        "no random game ended with neither side able to move"
    );
}
