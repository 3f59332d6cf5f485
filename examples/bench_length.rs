//! Benchmark: checking time against game length (issue #10, #11, #5).
//!
//! 1. Stratego family: long Barrage games of legal moves (the two-squares and more-squares
//!    rules on, so their trackers work on every ply), 10,000 to 160,000 plies.
//! 2. Xiangqi with `Repetition "claim"`: both sides shuttling their Horses for the whole game,
//!    so that every ply repeats a position and a third occurrence is judged (rulings §4.3)
//!    once per window: the worst case of the repetition judge, 10,000 to 160,000 plies.
//!
//! Each game is written as a native log and the whole check (parse + rules + checks) is
//! timed, best of 5. Time per ply must stay flat when checking is linear in game length.
//!
//! Run: `cargo run --release --example bench_length` (or `scripts/bench.sh`).

use arbiter::games::stratego::Stratego;
use arbiter::pipeline::{check_source, Options, Source};
use arbiter::record::MoveRecord;
use arbiter::rules::{GameId, Rules, Side};
use std::time::Instant;

const SETUP: &str = "setup blue\n 10 FB.S..9X..\n  9 ..2.......\n  8 .....3.2..\n  7 ..........\nsetup red\n  4 ..........\n  3 .....3.2..\n  2 ..2.......\n  1 FB.S..9X..\n";

/// A deterministic xorshift generator (no dependency, same games on every run).
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

/// A native log of `plies` legal, non-capturing Barrage plies.
fn game(plies: usize, seed: u64) -> String {
    let engine = Stratego::new(GameId::Barrage).expect("barrage");
    let head = format!("[Game \"barrage\"]\n[Result \"*\"]\n\n{SETUP}\n");
    let record = arbiter::record::parse::parse_log(&head).remove(0);
    let params = engine.default_parameters();
    let mut st = engine
        .start(&record, &params, &mut Vec::new())
        .expect("valid setup");
    let g = engine.geometry();
    let mut rng = Rng(seed);
    let mut text = head;
    for n in 0..plies {
        let moves: Vec<_> = engine
            .legal_moves(&st)
            .into_iter()
            .filter(|&(f, t)| {
                let p = st.board[f as usize].expect("own piece");
                st.board[t as usize].is_none()
                    && st.two_squares.check(&g, p.side, p.id, f, t).is_none()
                    && {
                        let (k, th) = engine.consequences(&st, f, t);
                        !st.chase.forbids(p.side, p.id, t, &th, k)
                    }
            })
            .collect();
        let Some(&(f, t)) = moves.get(rng.next() as usize % moves.len().max(1)) else {
            break;
        };
        let mv_text = format!("{}-{}", g.name(f), g.name(t));
        let mv = MoveRecord::unlocated(&mv_text, n);
        engine.play(&mut st, &mv, n as u32 + 1).expect("legal");
        text.push_str(&mv_text);
        text.push(if n % 16 == 15 { '\n' } else { ' ' });
        let _ = Side::First;
    }
    text.push_str("*\n");
    text
}

/// A Xiangqi log of `plies` plies: both sides shuttle a Horse (h0g2 h9g7 g2h0 g7h9 ...),
/// played on past every third occurrence (`Repetition "claim"`).
fn xiangqi_game(plies: usize) -> String {
    let mut text = String::from("[Game \"xiangqi\"]\n[Repetition \"claim\"]\n[Result \"*\"]\n\n");
    let cycle = ["h0g2", "h9g7", "g2h0", "g7h9"];
    for n in 0..plies {
        text.push_str(cycle[n % 4]);
        text.push(if n % 16 == 15 { '\n' } else { ' ' });
    }
    text.push_str("*\n");
    text
}

fn main() {
    println!("Stratego family (Barrage, two-squares and more-squares rules on):");
    println!();
    table(|plies| game(plies, 0x9E37_79B9 ^ plies as u64), |_| true);
    println!();
    println!("Xiangqi, Horses shuttling, Repetition \"claim\" (a third occurrence every 8 plies):");
    println!();
    table(xiangqi_game, |f| {
        f.code == arbiter::Code::ThreefoldRepetition
    });
}

/// Times the check of games of 10,000 to 160,000 plies made by `make`; every finding must
/// pass `expected`.
fn table(make: impl Fn(usize) -> String, expected: impl Fn(&arbiter::Finding) -> bool) {
    println!("| plies | bytes | check (ms) | ns per ply |");
    println!("|---:|---:|---:|---:|");
    for plies in [10_000usize, 20_000, 40_000, 80_000, 160_000] {
        let text = make(plies);
        let src = Source::from_bytes("bench.arb", text.clone().into_bytes());
        let mut best = f64::MAX;
        let mut replayed = 0;
        for _ in 0..5 {
            let t = Instant::now();
            let games = check_source(&src, &Options::default());
            let dt = t.elapsed().as_secs_f64();
            replayed = games[0].plies;
            assert!(
                games[0].findings.iter().all(&expected),
                "{:?}",
                games[0].findings.iter().find(|f| !expected(f))
            );
            best = best.min(dt);
        }
        println!(
            "| {replayed} | {} | {:.1} | {:.0} |",
            text.len(),
            best * 1e3,
            best * 1e9 / replayed as f64
        );
    }
}
