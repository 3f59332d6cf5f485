//! Properties of the Jungle engine (rulings §3), on random games from the standard start and
//! from random positions, under random rule switches:
//! - a game of moves the engine allows replays through the whole pipeline with no error or
//!   warning, its only infos are the threefold repetitions an independent count finds, and its
//!   ending is the recorded result;
//! - the move checker and the move generator agree on every from/to pair;
//! - a corrupted move (a pair the rules reject) is caught as `illegal-move` at exactly its ply.

use arbiter::games::jungle::board::full_key;
use arbiter::games::jungle::{
    den_owner, fen, is_water, Board, Jungle, Kind, Move, Piece, State, Variant, GEOMETRY, KINDS,
    SQUARES,
};
use arbiter::geometry::zobrist;
use arbiter::pipeline::{self, Options, Source};
use arbiter::record::Span;
use arbiter::rules::{Overrides, Rules, Side};
use arbiter::{Code, Severity};
use proptest::prelude::*;
use std::collections::HashMap;

/// A random legal position: each of the 16 animals present with probability 1/2, on a random
/// square it may stand on (Rats anywhere but the dens, the others on land).
fn random_board(seed: u64) -> Board {
    let mut n = seed;
    let mut next = || {
        n = n.wrapping_add(1);
        zobrist(n)
    };
    let mut b: Board = [None; SQUARES];
    let mut id = 0;
    for side in [Side::First, Side::Second] {
        for kind in KINDS {
            if next() % 2 == 0 {
                continue;
            }
            loop {
                let sq = (next() % SQUARES as u64) as u8;
                if b[sq as usize].is_none()
                    && den_owner(sq).is_none()
                    && (kind == Kind::Rat || !is_water(sq))
                {
                    b[sq as usize] = Some(Piece { side, kind, id });
                    id += 1;
                    break;
                }
            }
        }
    }
    b
}

fn variant_of(bits: u8) -> Variant {
    Variant {
        dog_above_wolf: bits & 1 != 0,
        elephant_spares_rat: bits & 2 != 0,
        bank_barrier: bits & 4 != 0,
        any_trap: bits & 8 != 0,
    }
}

pub(crate) fn name(mv: Move) -> String {
    format!("{}-{}", GEOMETRY.name(mv.0), GEOMETRY.name(mv.1))
}

/// A game: the start, its header tags, and the moves played by picking `choices` among the
/// moves the engine allows (often shuttling a piece back, so that positions repeat), until the
/// game ends or the choices run out.
pub(crate) struct Game {
    start: State,
    tags: String,
    pub(crate) moves: Vec<Move>,
    /// Every position after each ply (0 = start).
    states: Vec<State>,
}

pub(crate) fn play_game(random_start: bool, seed: u64, bits: u8, choices: &[u16]) -> Game {
    let engine = Jungle::new();
    let variant = variant_of(bits);
    let mut tags = format!("[Game \"jungle\"]\n[Variant \"{}\"]\n", variant.name());
    let start = if random_start {
        let side = if seed.is_multiple_of(3) {
            Side::Second
        } else {
            Side::First
        };
        let board = random_board(seed);
        tags.push_str(&format!("[FEN \"{}\"]\n", fen(&board, side)));
        engine.position(board, side, variant, Span::default())
    } else {
        let mut st = engine.standard_start(variant);
        if seed % 2 == 1 {
            tags.push_str("[FirstMove \"blue\"]\n");
            st = engine.position(st.board, Side::Second, variant, Span::default());
        }
        st
    };
    let mut st = start.clone();
    let mut moves = Vec::new();
    let mut states = vec![st.clone()];
    for (i, &c) in choices.iter().enumerate() {
        if engine.outcome(&st, i as u32).is_some() {
            break;
        }
        let allowed = engine.allowed_moves(&st);
        // Three times in four, shuttle back if the rules allow it: repetitions happen.
        let back = (i >= 2).then(|| moves[i - 2]).map(|(f, t): Move| (t, f));
        let mv = match back {
            Some(b) if c % 4 != 0 && allowed.contains(&b) => b,
            _ => allowed[c as usize % allowed.len()],
        };
        engine.make_move(&mut st, mv, i as u32 + 1, Span::default());
        moves.push(mv);
        states.push(st.clone());
    }
    Game {
        start,
        tags,
        moves,
        states,
    }
}

pub(crate) fn log(g: &Game, moves: &[String]) -> String {
    let engine = Jungle::new();
    let last = g.states.last().expect("start");
    let result = engine
        .outcome(last, g.moves.len() as u32)
        .map_or("*", |o| o.result.as_str());
    format!(
        "{}[Result \"{result}\"]\n\n{} {result}\n",
        g.tags,
        moves.join(" ")
    )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    #[test]
    fn random_legal_games_replay_with_no_finding(
        random_start in any::<bool>(),
        seed in any::<u64>(),
        bits in 0u8..16,
        choices in prop::collection::vec(any::<u16>(), 0..160),
    ) {
        let g = play_game(random_start, seed, bits, &choices);
        let texts: Vec<String> = g.moves.iter().map(|&m| name(m)).collect();
        let text = log(&g, &texts);
        let src = Source::from_bytes("random.arb", text.clone().into_bytes());
        let reports = pipeline::check_source(&src, &Options::default());
        prop_assert_eq!(reports.len(), 1);
        let r = &reports[0];
        for f in &r.findings {
            prop_assert!(
                f.severity() == Severity::Info && f.code == Code::ThreefoldRepetition,
                "{:?}\n{}", f, text
            );
        }
        prop_assert_eq!(r.plies, g.moves.len());
        // An independent count of positions, keyed by a full (non-incremental) key.
        let mut seen: HashMap<u64, u32> = HashMap::new();
        let mut third = Vec::new();
        for (ply, st) in g.states.iter().enumerate() {
            let k = full_key(&st.board, st.to_move);
            prop_assert_eq!(k, st.key, "incremental key at ply {}", ply);
            let n = seen.entry(k).or_default();
            *n += 1;
            if *n == 3 {
                third.push(ply as u32);
            }
        }
        let infos: Vec<u32> = r.findings.iter().filter_map(|f| f.ply).collect();
        prop_assert_eq!(infos, third);
        let engine = Jungle::new();
        let end = engine.outcome(g.states.last().unwrap(), g.moves.len() as u32);
        prop_assert_eq!(r.outcome.clone(), end);
        prop_assert_eq!(g.start.key, r.replay.as_ref().unwrap().start_key);

        // parse -> print (`arbiter convert`) -> parse gives the same replay, and printing
        // that again gives the same text.
        let rec = &pipeline::parse_source(&src)[0];
        let printed = arbiter::convert::convert_one(rec, &Overrides::default(), None).unwrap();
        let src2 = Source::from_bytes("printed.arb", printed.clone().into_bytes());
        let r2 = &pipeline::check_source(&src2, &Options::default())[0];
        let shape = |r: &arbiter::GameReport| {
            r.replay.as_ref().map(|p| {
                p.plies.iter().map(|i| (i.from, i.to, i.piece, i.capture, i.key)).collect::<Vec<_>>()
            })
        };
        prop_assert_eq!(shape(r), shape(r2));
        prop_assert_eq!(&r.outcome, &r2.outcome);
        let codes = |r: &arbiter::GameReport| r.findings.iter().map(|f| (f.code, f.ply)).collect::<Vec<_>>();
        prop_assert_eq!(codes(r), codes(r2));
        let rec2 = &pipeline::parse_source(&src2)[0];
        prop_assert_eq!(
            arbiter::convert::convert_one(rec2, &Overrides::default(), None).unwrap(),
            printed
        );
    }

    #[test]
    fn checker_and_generator_agree(
        random_start in any::<bool>(),
        seed in any::<u64>(),
        bits in 0u8..16,
        choices in prop::collection::vec(any::<u16>(), 0..60),
        at in any::<prop::sample::Index>(),
    ) {
        let g = play_game(random_start, seed, bits, &choices);
        let st = at.get(&g.states);
        let engine = Jungle::new();
        let legal = engine.legal_moves(st);
        for from in 0..SQUARES as u8 {
            for to in 0..SQUARES as u8 {
                let ok = engine.check_move(st, from, to).is_ok();
                prop_assert_eq!(
                    ok,
                    legal.contains(&(from, to)),
                    "{} in {}: {:?}", name((from, to)), fen(&st.board, st.to_move),
                    engine.check_move(st, from, to)
                );
            }
        }
    }

    #[test]
    fn a_corrupted_move_is_caught_at_its_ply(
        random_start in any::<bool>(),
        seed in any::<u64>(),
        bits in 0u8..16,
        choices in prop::collection::vec(any::<u16>(), 1..100),
        at in any::<prop::sample::Index>(),
        bad in any::<prop::sample::Index>(),
    ) {
        let g = play_game(random_start, seed, bits, &choices);
        prop_assume!(!g.moves.is_empty());
        let k = at.index(g.moves.len());
        let st = &g.states[k];
        let engine = Jungle::new();
        let legal = engine.legal_moves(st);
        let wrong: Vec<Move> = (0..SQUARES as u8)
            .flat_map(|f| (0..SQUARES as u8).map(move |t| (f, t)))
            .filter(|m| !legal.contains(m))
            .collect();
        let corrupt = *bad.get(&wrong);
        let mut texts: Vec<String> = g.moves.iter().map(|&m| name(m)).collect();
        texts[k] = name(corrupt);
        let text = log(&g, &texts);
        let src = Source::from_bytes("corrupt.arb", text.clone().into_bytes());
        let r = &pipeline::check_source(&src, &Options::default())[0];
        let errors: Vec<(Code, Option<u32>)> = r
            .findings
            .iter()
            .filter(|f| f.severity() == Severity::Error)
            .map(|f| (f.code, f.ply))
            .collect();
        prop_assert_eq!(errors, vec![(Code::IllegalMove, Some(k as u32 + 1))], "{}", text);
        prop_assert_eq!(r.plies, k);
        prop_assert!(r.replay.as_ref().unwrap().stopped);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// No input may panic: arbitrary FEN values, variant tags and move texts are judged, with
    /// a finding for whatever is wrong.
    #[test]
    fn arbitrary_positions_and_moves_never_panic(
        fen_value in "[rcdwptleRCDWPTLE1-9/ xb\\\\é]{0,40}",
        variant in prop_oneof![
            Just("jijbent".to_string()),
            Just("any-trap bank-barrier".to_string()),
            "[a-z,+ -]{0,20}",
        ],
        moves in prop::collection::vec("[a-hx0-9:()-]{1,8}", 0..12),
        with_fen in any::<bool>(),
    ) {
        let fen_tag = if with_fen {
            format!("[FEN \"{fen_value}\"]\n")
        } else {
            String::new()
        };
        let text = format!(
            "[Game \"jungle\"]\n{fen_tag}[Variant \"{variant}\"]\n\n{} *\n",
            moves.join(" ")
        );
        let src = Source::from_bytes("fuzz.arb", text.into_bytes());
        for r in pipeline::check_source(&src, &Options::default()) {
            for f in &r.findings {
                prop_assert!(f.span.end <= src.text.len());
            }
            let rec = &pipeline::parse_source(&src)[0];
            let judged = arbiter::claim::Judged { record: rec, report: &r };
            for c in [arbiter::claim::Claim::Repetition, arbiter::claim::Claim::JungleRepetition] {
                let _ = arbiter::claim::judge(judged, c, moves.len() as u32);
            }
        }
    }
}
