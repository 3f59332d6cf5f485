//! Dumps what arbiter's Xiangqi engine says about every position of a set of games, one JSON
//! line per game, for `scripts/crosscheck-xiangqi.js` to compare with Fairy-Stockfish.
//!
//! ```text
//! xiangqi_dump corpus FILE...             every game of the files, read as `arbiter check`
//!                                         reads them (xqbase, engine and site PGN)
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
//! `fsf_window_reason` for Fairy-Stockfish's window and reading, `wide_window_result` and
//! `fsf_chase_result` for each of its two differences alone, `sides` (Red's and Black's moves,
//! checks and chasing moves in arbiter's window), or null), "recorded" (for a
//! record: `{"plies", "result", "claims": [{"word", "reason"}]}`, its Termination tag and
//! WinBoard adjudication comments; null for a generated game)}`. A game whose FEN cannot be
//! read is skipped with a note on stderr.
//! In `lines` mode each line's `id` is `FILE#GAME/LINE`, and a line the replay stopped at a
//! coordinate move also gives that move as `rejected_move` (ICCS), for the cross-check to ask
//! Fairy-Stockfish whether it is illegal there too.

use arbiter::games::xiangqi::random::{random_game, repetition_game};
use arbiter::games::xiangqi::repetition::{chased, History, Repeat};
use arbiter::games::xiangqi::{fen, Move, MoveList, Position, Xiangqi};
use arbiter::pipeline::{parse_source, Source};
use arbiter::record::Span;
use arbiter::rules::{replay, Parameters};
use serde_json::json;
use std::io::Write;

/// Longest random game, in plies.
const MAX_PLIES: usize = 300;

/// What a dumped game is: its id, start, the plies arbiter accepted, the move it refused,
/// and for a record what it says about its end (null for a generated game).
struct Game<'a> {
    id: &'a str,
    start: &'a Position,
    moves: &'a [Move],
    rejected: Option<String>,
    recorded: serde_json::Value,
}

/// The first third occurrence `rep` judged by arbiter (rulings §4.3), by Fairy-Stockfish's
/// reading, and by each of its two differences alone (its wider window; its chase reading),
/// so that a verdict that differs can be told apart by kind (docs/xiangqi.md).
/// Red's and Black's moves in arbiter's window `first+1 ..= last` of a repetition: how many,
/// how many give check, and how many chase some piece (rulings §4.3's reading), for telling a
/// recorder's verdict apart by kind (docs/xiangqi.md).
fn window_sides(start: &Position, moves: &[Move], first: u32, last: u32) -> serde_json::Value {
    let mut pos = *start;
    let mut counts = [[0u32; 3]; 2];
    for (i, &m) in moves.iter().enumerate().take(last as usize) {
        let before = pos;
        pos.make(m);
        if i as u32 >= first {
            let c = &mut counts[before.to_move().index()];
            c[0] += 1;
            c[1] += u32::from(pos.is_check());
            c[2] += u32::from(chased(&before, m, &pos) != 0);
        }
    }
    let side = |c: [u32; 3]| json!({"moves": c[0], "checks": c[1], "chases": c[2]});
    json!([side(counts[0]), side(counts[1])])
}

fn repetition_json(history: &History, rep: &Repeat) -> serde_json::Value {
    use arbiter::games::xiangqi::repetition::Reading;
    let arbiter::types::Verdict { result, reason } = rep.outcome();
    let fsf = history.judge_fsf(rep.first, rep.ply).outcome();
    let window = history.judge_with(rep.first, rep.ply, true, Reading::Rulings);
    let chase = history.judge_with(rep.first, rep.ply, false, Reading::FairyStockfish);
    json!({
        "ply": rep.ply,
        "first": rep.first,
        "result": result.as_str(),
        "reason": reason,
        // The verdict with Fairy-Stockfish's window and reading (docs/xiangqi.md).
        "fsf_window_result": fsf.result.as_str(),
        "fsf_window_reason": fsf.reason,
        // Only its window wider / only its chase reading.
        "wide_window_result": window.outcome().result.as_str(),
        "fsf_chase_result": chase.outcome().result.as_str(),
    })
}

fn dump(out: &mut impl Write, game: Game) {
    let Game {
        id,
        start,
        moves,
        rejected,
        recorded,
    } = game;
    let mut pos = *start;
    let mut legal_all = Vec::with_capacity(moves.len() + 1);
    let mut check = String::with_capacity(moves.len() + 1);
    let mut list = MoveList::new();
    // The first third occurrence and arbiter's verdict on it (rulings §4.3).
    let mut history = History::new(*start, Span::new(0, 0));
    let mut repetition = serde_json::Value::Null;
    for i in 0..=moves.len() {
        if i > 0 && repetition.is_null() {
            if let Some(rep) = history.push(i as u32, moves[i - 1], Span::new(0, 0), &pos) {
                repetition = repetition_json(&history, &rep);
                repetition["sides"] = window_sides(start, moves, rep.first, rep.ply);
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
        "recorded": recorded,
    });
    let _ = writeln!(out, "{line}");
}

/// What a record says about its end: the plies it writes, its result, and each claim of an end
/// (`Termination`, a WinBoard adjudication comment) with the end reason it names, if any.
fn recorded(rec: &arbiter::record::GameRecord) -> serde_json::Value {
    use arbiter::checks::outcome::{claimed_ends, recorded_result, Termination};
    let claims: Vec<serde_json::Value> = claimed_ends(rec)
        .into_iter()
        .map(|(word, term)| {
            let reason = match term {
                Some(Termination::OnBoard(r)) => Some(r.as_str()),
                _ => None,
            };
            json!({"word": word, "reason": reason})
        })
        .collect();
    let result = recorded_result(rec, &mut Vec::new()).map(|r| r.value.as_str());
    json!({"plies": rec.moves.len(), "result": result, "claims": claims})
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
            dump(
                out,
                Game {
                    id: &id,
                    start: &start,
                    moves: &moves,
                    rejected,
                    recorded: recorded(&rec),
                },
            );
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
    let game = Game {
        id,
        start: &start,
        moves: &moves,
        rejected,
        recorded: serde_json::Value::Null,
    };
    dump(&mut text, game);
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
                let id = format!("{kind}#{i}");
                let game = Game {
                    id: &id,
                    start: &start,
                    moves: &moves,
                    rejected: None,
                    recorded: serde_json::Value::Null,
                };
                dump(&mut out, game);
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
