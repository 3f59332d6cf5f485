//! Positions (docs/log-format.md, positions): a game taken up after any ply stands in the same
//! position and gives the same findings on the same moves.
//!
//! - Every fixture game, taken up after every ply it reaches (`convert --from-ply`), agrees
//!   with itself as [`take_up`] defines it: the same position, and the same findings and
//!   outcome for the plies after it, except where a history rule needs the plies before.
//! - Random positions of every ruleset (random games of the Stratego family, Spionage, Jungle,
//!   Xiangqi and Jieqi, cut at a random ply): the position printed as a start (`FEN`, or the
//!   position start) and read back is the same position, and the moves after it give the same
//!   findings and outcome; with the history rules off or not engaged nothing is left out.

use crate::from_ply_support::{take_up, Taken};
use arbiter::games::spionage::Spionage;
use arbiter::games::xiangqi::{jieqi, position::Position, random};
use arbiter::pipeline::{check_record, parse_source, Options, Source};
use arbiter::rules::Rules;
use arbiter::rules::{GameId, Overrides};
use arbiter::show::board_at;
use proptest::prelude::*;
use std::path::PathBuf;

/// The moves the Spionage engine allows in the position after ply `n` of `text` (its turn
/// half played or not, the no-return rule applied).
fn spionage_moves(text: &str, n: u32) -> Vec<(u8, u8)> {
    let src = Source::from_bytes("moves.arb", text.as_bytes().to_vec());
    let rec = parse_source(&src).remove(0);
    let game = arbiter::pipeline::game_of(&rec, &Overrides::default()).expect("a Game tag");
    let engine = Spionage::new(game).expect("a Spionage ruleset");
    let params = engine.default_parameters();
    let start = arbiter::rules::start_ply(&rec).unwrap_or(0);
    let mut moves = Vec::new();
    arbiter::rules::replay_observed(&engine, &rec, &params, |info, st| {
        if info.map_or(start, |i| i.number) == n {
            moves = engine.legal_moves(st);
        }
    });
    moves
}

/// Judges `text` and takes its first game up after ply `n` (`n` within the plies it reached).
fn round_trip(text: &str, pick: u64) -> Result<(u32, Taken), String> {
    let src = Source::from_bytes("random.arb", text.as_bytes().to_vec());
    let rec = parse_source(&src).remove(0);
    let judged = check_record("random.arb", &rec, &Options::default());
    let start = judged.replay.as_ref().map_or(0, |r| r.start_ply);
    let n = start + (pick % (judged.plies as u64 + 1)) as u32;
    take_up(&rec, &judged, n)
        .map(|t| (n, t))
        .map_err(|e| format!("{e}\n--- original\n{text}"))
}

#[test]
fn every_fixture_game_taken_up_after_any_ply_agrees() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("fixtures");
    let mut files = Vec::new();
    for dir in [
        "stratego", "history", "spionage", "jungle", "xiangqi", "jieqi", "show", "gravon",
    ] {
        for e in std::fs::read_dir(root.join(dir)).expect("fixture folder") {
            files.push(e.expect("entry").path());
        }
    }
    files.sort();
    let (mut exact, mut partial, mut refused, mut bad) = (0, 0, 0, Vec::new());
    for path in &files {
        let src = Source::read(path);
        for rec in parse_source(&src) {
            let judged = check_record(&src.name, &rec, &Options::default());
            let Some(replay) = judged.replay.as_ref() else {
                continue;
            };
            let (first, last) = (replay.start_ply, replay.start_ply + judged.plies as u32);
            if board_at(&rec, &Overrides::default(), first).is_err() {
                continue; // the game never starts: no position to take up
            }
            // Every ply of a short game; about 24 of a long one.
            let step = ((last - first) / 24).max(1) as usize;
            for n in (first..=last).step_by(step).chain([last]) {
                match take_up(&rec, &judged, n) {
                    Ok(Taken::Agrees { exact: true }) => exact += 1,
                    Ok(Taken::Agrees { exact: false }) => partial += 1,
                    Ok(Taken::Refused) => refused += 1,
                    Err(e) => bad.push(format!("{} game {}: {e}", src.name, rec.index + 1)),
                }
            }
        }
    }
    assert!(
        bad.is_empty(),
        "{} disagreements:\n{}",
        bad.len(),
        bad.join("\n\n")
    );
    assert!(
        exact > 1500,
        "only {exact} exact comparisons ({partial} partial, {refused} refused)"
    );
    assert!(
        partial > 50 && refused > 10,
        "{exact} exact, {partial} partial, {refused} refused"
    );
}

/// The native log of a random Xiangqi game (`jieqi`: from a random shuffle, given in setup
/// sections) of at most `max` plies.
fn xiangqi_log(jieqi: bool, seed: u64, max: usize) -> String {
    let (start, head) = if jieqi {
        let pos = random::jieqi_shuffle(seed);
        let mut head = "[Game \"jieqi\"]\n".to_string();
        for (side, rows) in jieqi::shuffle_rows(&pos) {
            head.push_str(&format!("setup {side}\n"));
            for (rank, cells) in rows {
                head.push_str(&format!("  {rank} {cells}\n"));
            }
        }
        (pos, head)
    } else {
        (Position::start(), "[Game \"xiangqi\"]\n".to_string())
    };
    let moves: Vec<String> = random::random_game(&start, seed, max)
        .iter()
        .map(|m| m.iccs())
        .collect();
    format!("{head}\n{} *\n", moves.join(" "))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn stratego_family_positions_round_trip(
        which in 0usize..4,
        seed in any::<u64>(),
        choices in prop::collection::vec(any::<u32>(), 0..160),
        pick in any::<u64>(),
    ) {
        let g = crate::stratego::random_game(which, seed, &choices);
        let r = round_trip(&g.log(&g.moves), pick);
        prop_assert!(r.is_ok(), "{}", r.unwrap_err());
        let (n, taken) = r.unwrap();
        // The random games play with the history rules off: nothing is left out.
        prop_assert!(matches!(taken, Taken::Agrees { exact: true } | Taken::Refused), "ply {}: {:?}", n, taken);
    }

    #[test]
    fn spionage_positions_round_trip(
        snel in any::<bool>(),
        seed in any::<u64>(),
        turns in 0usize..120,
        pick in any::<u64>(),
    ) {
        let game = if snel { GameId::SpionageSnel } else { GameId::Spionage };
        let text = crate::spionage::write(&crate::spionage::random_game(game, seed, turns));
        let r = round_trip(&text, pick);
        prop_assert!(r.is_ok(), "{}", r.unwrap_err());
        // Spionage has no history rule: nothing is ever left out.
        let (n, taken) = r.unwrap();
        prop_assert!(matches!(taken, Taken::Agrees { exact: true } | Taken::Refused), "ply {}: {:?}", n, taken);
        // The no-return rule and the half-played turn are carried: the same moves are legal.
        if taken != Taken::Refused {
            let copy = arbiter::convert::convert_from(
                &parse_source(&Source::from_bytes("s.arb", text.as_bytes().to_vec())).remove(0),
                &Overrides::default(),
                None,
                n,
            )
            .expect("converted");
            prop_assert_eq!(spionage_moves(&text, n), spionage_moves(&copy, n), "{}", copy);
        }
    }

    #[test]
    fn jungle_positions_round_trip(
        random_start in any::<bool>(),
        seed in any::<u64>(),
        bits in 0u8..16,
        choices in prop::collection::vec(any::<u16>(), 0..80),
        pick in any::<u64>(),
    ) {
        let g = crate::jungle::play_game(random_start, seed, bits, &choices);
        let texts: Vec<String> = g.moves.iter().map(|&m| crate::jungle::name(m)).collect();
        let r = round_trip(&crate::jungle::log(&g, &texts), pick);
        prop_assert!(r.is_ok(), "{}", r.unwrap_err());
    }

    #[test]
    fn xiangqi_and_jieqi_positions_round_trip(
        jieqi in any::<bool>(),
        seed in any::<u64>(),
        max in 0usize..120,
        pick in any::<u64>(),
    ) {
        let r = round_trip(&xiangqi_log(jieqi, seed, max), pick);
        prop_assert!(r.is_ok(), "{}", r.unwrap_err());
    }
}
