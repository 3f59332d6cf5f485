//! Dumps what arbiter's Xiangqi engine says about every position of a set of games, one JSON
//! line per game, for `scripts/crosscheck-xiangqi.js` to compare with Fairy-Stockfish.
//!
//! ```text
//! xiangqi_dump corpus FILE...             every game of the files (ICCS, as `arbiter check`
//!                                         reads them with --game xiangqi)
//! xiangqi_dump random COUNT SEED [FIRST]  random games FIRST..FIRST+COUNT (game i uses seed
//!                                         SEED + i), each at most 300 plies
//! xiangqi_dump repetition COUNT SEED [FIRST]  the same, driven into repetitions
//!                                         (`random::repetition_game`)
//! xiangqi_dump lines FILE|DIR...          every line of play (main line and variations) of
//!                                         every record, XQF and DhtmlXQ archives included,
//!                                         each from the start (`GameRecord::line_record`)
//! ```
//!
//! Each line: `{"id", "fen" (start), "moves" (ICCS, the plies arbiter accepted), "legal" (per
//! position, from the start to after the last move: the sorted legal moves joined by spaces),
//! "check" (per position, `1` when the side to move is in check), "end" (`checkmate`,
//! `stalemate` or `none` for the last position), "rejected" (the move arbiter refused, if
//! any, with its reason), "repetition" (the first third occurrence, rulings §4.3: `{"ply",
//! "first", "result", "reason"}` as arbiter judges it, with `fsf_window_result` and
//! `fsf_window_reason` for Fairy-Stockfish's window, or null)}`. A game whose FEN cannot be read is skipped with a note on stderr.
//! In `lines` mode each line's `id` is `FILE#GAME/LINE`, and a line the replay stopped at a
//! coordinate move also gives that move as `rejected_move` (ICCS), for the cross-check to ask
//! Fairy-Stockfish whether it is illegal there too.

use arbiter::games::xiangqi::random::{random_game, repetition_game};
use arbiter::games::xiangqi::repetition::History;
use arbiter::games::xiangqi::{fen, Move, MoveList, Position, Xiangqi};
use arbiter::pipeline::{parse_source, Source};
use arbiter::record::Span;
use arbiter::rules::{replay, Parameters};
use serde_json::json;
use std::io::Write;

/// Longest random game, in plies.
const MAX_PLIES: usize = 300;

fn dump(
    out: &mut impl Write,
    id: &str,
    start: &Position,
    moves: &[Move],
    rejected: Option<String>,
) {
    let mut pos = *start;
    let mut legal_all = Vec::with_capacity(moves.len() + 1);
    let mut check = String::with_capacity(moves.len() + 1);
    let mut list = MoveList::new();
    // The first third occurrence and arbiter's verdict on it (rulings §4.3).
    let mut history = History::new(*start, Span::new(0, 0));
    let mut repetition = serde_json::Value::Null;
    for i in 0..=moves.len() {
        if i > 0 && repetition.is_null() {
            if let Some(rep) = history.push(i as u32, moves[i - 1], Span::new(0, 0), pos) {
                let arbiter::types::Verdict { result, reason } = rep.outcome();
                let arbiter::types::Verdict {
                    result: fsf_result,
                    reason: fsf_reason,
                } = history.judge_fsf(rep.first, rep.ply).outcome();
                repetition = json!({
                    "ply": rep.ply,
                    "first": rep.first,
                    "result": result.as_str(),
                    "reason": reason,
                    // The verdict with Fairy-Stockfish's window (docs/xiangqi.md).
                    "fsf_window_result": fsf_result.as_str(),
                    "fsf_window_reason": fsf_reason,
                });
            }
        }
        pos.legal_moves(&mut list);
        let mut names: Vec<String> = list.iter().map(|m| m.iccs()).collect();
        names.sort_unstable();
        legal_all.push(names.join(" "));
        check.push(if pos.is_check() { '1' } else { '0' });
        if let Some(&m) = moves.get(i) {
            pos.make(m);
        }
    }
    let end = if list.is_empty() {
        if pos.is_check() {
            "checkmate"
        } else {
            "stalemate"
        }
    } else {
        "none"
    };
    let line = json!({
        "id": id,
        "fen": start.fen(0, 1),
        "moves": moves.iter().map(|m| m.iccs()).collect::<Vec<_>>(),
        "legal": legal_all,
        "check": check,
        "end": end,
        "rejected": rejected,
        "repetition": repetition,
    });
    let _ = writeln!(out, "{line}");
}

fn corpus(files: &[String], out: &mut impl Write) -> Result<(), String> {
    let engine = Xiangqi::new();
    // Every ply of the record is dumped: a third occurrence does not end the replay here
    // (`Repetition "claim"`); the dump's own History finds the first one.
    let params = Parameters {
        repetition: Some(arbiter::rules::RepetitionMode::Claim),
        ..arbiter::rules::Rules::default_parameters(&engine)
    };
    for file in files {
        let src = Source::read(std::path::Path::new(file));
        if let Some(why) = &src.unreadable {
            return Err(format!("cannot read {file}: {why}"));
        }
        for rec in parse_source(&src) {
            let id = format!("{file}#{}", rec.index);
            let start = match rec.tag_value("FEN").map(fen::parse) {
                None => Position::start(),
                Some(Ok(f)) => f.position,
                Some(Err(e)) => {
                    eprintln!("xiangqi_dump: {id} skipped: {}", e[0].message);
                    continue;
                }
            };
            let r = replay(&engine, &rec, &params);
            let moves: Vec<Move> = r
                .plies
                .iter()
                .map(|p| Move {
                    from: p.from,
                    to: p.to,
                })
                .collect();
            let rejected = r
                .findings
                .iter()
                .find(|f| f.severity() == arbiter::Severity::Error)
                .map(|f| format!("ply {}: {} ({})", f.ply.unwrap_or(0), f.message, f.code));
            dump(out, &id, &start, &moves, rejected);
        }
    }
    Ok(())
}

/// Every line of every record of `paths` (files, or directories walked as `check` walks
/// them): one dump line each, with the move that stopped it.
fn lines(paths: &[String], out: &mut impl Write) -> Result<(), String> {
    let engine = Xiangqi::new();
    let params = Parameters {
        repetition: Some(arbiter::rules::RepetitionMode::Claim),
        ..arbiter::rules::Rules::default_parameters(&engine)
    };
    let paths: Vec<std::path::PathBuf> = paths.iter().map(Into::into).collect();
    for input in arbiter::input::expand(&paths) {
        let name = input.name();
        for chunk in arbiter::input::chunks(&input) {
            for rec in arbiter::pipeline::parse_chunk(&chunk) {
                if rec.unreadable() {
                    return Err(format!("cannot read {name} game {}", rec.index));
                }
                for n in 0..=rec.variations.len() {
                    let line = rec.line_record(n).expect("a line of the record");
                    let id = format!("{name}#{}/{n}", rec.index);
                    dump_line(out, &id, &engine, &line, &params);
                }
            }
        }
    }
    Ok(())
}

/// One line of play, as a record of its own: its dump line and, when a coordinate move
/// stopped its replay, that move (`rejected_move`).
fn dump_line(
    out: &mut impl Write,
    id: &str,
    engine: &Xiangqi,
    line: &arbiter::record::GameRecord,
    params: &Parameters,
) {
    let start = match line.tag_value("FEN").map(fen::parse) {
        None => Position::start(),
        Some(Ok(f)) => f.position,
        Some(Err(e)) => {
            eprintln!("xiangqi_dump: {id} skipped: {}", e[0].message);
            return;
        }
    };
    let r = replay(engine, line, params);
    let moves: Vec<Move> = r
        .plies
        .iter()
        .map(|p| Move {
            from: p.from,
            to: p.to,
        })
        .collect();
    let refused = r.stopped.then(|| line.moves.get(r.plies.len())).flatten();
    let rejected_move = refused.and_then(|m| m.coord()).map(|c| {
        format!(
            "{}{}{}{}",
            (b'a' + c.from.0) as char,
            c.from.1,
            (b'a' + c.to.0) as char,
            c.to.1
        )
    });
    let rejected = r
        .findings
        .iter()
        .find(|f| {
            f.severity() == arbiter::Severity::Error && f.code != arbiter::Code::ResultMismatch
        })
        .map(|f| format!("ply {}: {} ({})", f.ply.unwrap_or(0), f.message, f.code));
    let mut text = Vec::new();
    dump(&mut text, id, &start, &moves, rejected);
    let mut v: serde_json::Value = serde_json::from_slice(&text).unwrap_or_default();
    v["rejected_move"] = json!(rejected_move);
    let _ = writeln!(out, "{v}");
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let result = match args.first().map(String::as_str) {
        Some("corpus") if args.len() > 1 => corpus(&args[1..], &mut out),
        Some("lines") if args.len() > 1 => lines(&args[1..], &mut out),
        Some(kind @ ("random" | "repetition")) if args.len() >= 3 => {
            let count: u64 = args[1].parse().unwrap_or(0);
            let seed: u64 = args[2].parse().unwrap_or(0);
            let first: u64 = args.get(3).and_then(|a| a.parse().ok()).unwrap_or(0);
            let start = Position::start();
            let play = if kind == "random" {
                random_game
            } else {
                repetition_game
            };
            for i in first..first + count {
                let moves = play(&start, seed.wrapping_add(i), MAX_PLIES);
                dump(&mut out, &format!("{kind}#{i}"), &start, &moves, None);
            }
            Ok(())
        }
        _ => Err(
            "usage: xiangqi_dump corpus FILE... | xiangqi_dump lines FILE|DIR... | xiangqi_dump random|repetition COUNT SEED [FIRST]".into(),
        ),
    };
    let _ = out.flush();
    if let Err(e) = result {
        eprintln!("xiangqi_dump: {e}");
        std::process::exit(2);
    }
}
