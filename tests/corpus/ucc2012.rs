//! The 192 bot-against-bot games of the UCC Programming Competition 2012, from
//! `../shared/corpus/stratego-ucc2012/` (format and the judge's rules: SOURCE.md there), read
//! as they are by arbiter's importer (`record::ucc2012`, known by content) and replayed, with
//! every verdict of the competition's judge compared. The judge's verdicts are read here by a
//! strict reader of their own (any line the format does not describe fails the test), so the
//! importer is checked against an independent reading of the same lines.
//!
//! Coordinates. The judge's board has x = column 0..9 (left to right) and y = row 0..9 (top to
//! bottom), with Red on rows 0-3 (row 0 its back row), Blue on rows 6-9 (row 9 its back row)
//! and the lakes at x = 2, 3, 6, 7 on rows 4 and 5. arbiter's Red sets up on ranks 1-4 with
//! its back row on rank 1, so the file is `a` + x and the rank is y + 1: Red's rows land on
//! ranks 1-4, Blue's on 7-10, and the lakes on c5 d5 g5 h5 c6 d6 g6 h6. This mirrors the
//! judge's picture top to bottom, which keeps every neighbourhood, so moves and combats are
//! the same. UP is y - 1 (one rank down), DOWN is y + 1 (one rank up), LEFT x - 1, RIGHT x + 1.
//!
//! Pieces. The judge writes strengths the other way round (1 = Marshal ... 9 = Scout, `s` Spy,
//! `B` Bomb, `F` Flag); they become the native letters X 9 8 7 6 5 4 3 2 S B F.
//!
//! The judge had no two-squares and no chase rule: the importer gives the records
//! `TwoSquares` 0 and `MoreSquares` off as their format's own. Every attack is read with `x`,
//! and `KILLS`/`DIES`/`BOTHDIE` attacks carry the combat annotation `(A:D)` so the pipeline
//! checks the identities; the engine is also stepped ply by ply and the board after each combat
//! is compared with the judge's outcome (who stays on the square, who is removed). `convert`
//! writes each record as a native log that checks the same.
//!
//! What must hold (issue 2):
//! - every `KILLS`, `DIES`, `BOTHDIE` and `VICTORY_FLAG` agrees with arbiter;
//! - exactly the judge's `ILLEGAL` moves are illegal for arbiter (3 of them, SOURCE.md);
//! - every flag capture ends the game for arbiter on that ply, with the judge's winner;
//! - "Destroyed all mobile enemy pieces": when the losing side lost its last movable piece on
//!   its own move, the winner is to move and can move, so under rulings §1.1 ("a player to move
//!   who has no legal move loses") the game is not over yet: arbiter shows it unfinished and the
//!   recorded on-board termination is a `result-mismatch`. Every other such ending agrees
//!   (`no-legal-move`, same winner, same ply).
//! - games the judge stopped for other reasons (1000-turn draw, a bot's error, a crash) are
//!   unfinished for arbiter, except where the side to move had no legal move: one bot crashed
//!   with its only movable piece walled in by its own Bombs, which rulings §1.1 scores as a loss
//!   (`no-legal-move`) although the judge only counted movable pieces.

use crate::corpus_support;

use arbiter::finding::Code;
use arbiter::games::stratego::{Kind, State, Stratego};
use arbiter::pipeline::{check_source, parameters_for, parse_source, GameReport, Options, Source};
use arbiter::record::GameRecord;
use arbiter::rules::{GameId, Overrides, Rules, Side};
use corpus_support::{check_text, corpus_dir, describe, error_codes};
use std::path::{Path, PathBuf};

/// The judge's verdict on one move.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Judged {
    /// `OK`: a move to an empty square.
    Ok,
    /// `KILLS a d`: the attacker removed the defender and moved in.
    Kills(Kind, Kind),
    /// `DIES a d`: the attacker was removed, the defender stays.
    Dies(Kind, Kind),
    /// `BOTHDIE a d`: both removed.
    BothDie(Kind, Kind),
    /// `VICTORY_FLAG`: the attacker hit the Flag.
    VictoryFlag,
    /// `ILLEGAL`: rejected by the judge; the mover loses.
    Illegal,
}

/// One move line: `<turn> <RED|BLU>: <x> <y> <UP|DOWN|LEFT|RIGHT> [<n>] <outcome>`.
#[derive(Debug, Clone)]
struct UccPly {
    /// 1-based line number in the file, for messages.
    line: usize,
    side: Side,
    from: (i32, i32),
    to: (i32, i32),
    judged: Judged,
}

/// One game file as the judge wrote it.
#[derive(Debug)]
struct UccGame {
    /// `round4/asmodeus.vs.basic_cpp.4.53`.
    name: String,
    /// The file.
    path: PathBuf,
    red_bot: String,
    blue_bot: String,
    /// Setup lines as written: Red's rows y = 0..3, Blue's y = 6..9.
    red: Vec<String>,
    blue: Vec<String>,
    plies: Vec<UccPly>,
    /// The first `Game ends on ...` line: whose turn it names, and the reason text.
    end: Option<(Side, String)>,
    /// The summary line: the colour it names and `VICTORY`, `ILLEGAL` or `DRAW_DEFAULT`.
    summary: Option<(Side, String)>,
    /// True when a bot did not answer (`NO_MOVE` or nothing in place of the move).
    no_move: bool,
}

fn colour(word: &str) -> Option<Side> {
    match word {
        "RED" => Some(Side::First),
        "BLU" | "BLUE" => Some(Side::Second),
        _ => None,
    }
}

/// The judge's strength character as a piece (a lower number is stronger).
fn kind(c: char) -> Option<Kind> {
    Some(match c {
        '1' => Kind::Marshal,
        '2' => Kind::General,
        '3' => Kind::Colonel,
        '4' => Kind::Major,
        '5' => Kind::Captain,
        '6' => Kind::Lieutenant,
        '7' => Kind::Sergeant,
        '8' => Kind::Miner,
        '9' => Kind::Scout,
        's' => Kind::Spy,
        'B' => Kind::Bomb,
        'F' => Kind::Flag,
        _ => return None,
    })
}

fn kind_of(token: Option<&str>, what: &str) -> Kind {
    let t = token.unwrap_or_else(|| panic!("{what}: missing piece"));
    let mut chars = t.chars();
    match (chars.next().and_then(kind), chars.next()) {
        (Some(k), None) => k,
        _ => panic!("{what}: `{t}` is not a piece"),
    }
}

fn bot_name(path: &str) -> String {
    path.rsplit('/').nth(1).unwrap_or(path).to_string()
}

/// Reads one log strictly: any line the format does not describe fails the test.
fn read_game(name: &str, text: &str) -> UccGame {
    let lines: Vec<&str> = text.lines().collect();
    let setup_head = |i: usize, word: &str| -> String {
        let l = lines.get(i).copied().unwrap_or_default();
        let path = l
            .strip_suffix(&format!(" {word} SETUP"))
            .unwrap_or_else(|| panic!("{name}:{}: expected `<bot> {word} SETUP`", i + 1));
        bot_name(path)
    };
    let rows = |from: usize| -> Vec<String> {
        (from..from + 4)
            .map(|i| {
                let l = lines[i];
                assert!(
                    l.len() == 10 && l.chars().all(|c| c == '.' || kind(c).is_some()),
                    "{name}:{}: a setup row has 10 piece characters",
                    i + 1
                );
                l.to_string()
            })
            .collect()
    };
    let mut g = UccGame {
        name: name.to_string(),
        path: PathBuf::new(),
        red_bot: setup_head(0, "RED"),
        blue_bot: setup_head(5, "BLUE"),
        red: rows(1),
        blue: rows(6),
        plies: Vec::new(),
        end: None,
        summary: None,
        no_move: false,
    };
    for (i, &l) in lines.iter().enumerate().skip(10) {
        let at = format!("{name}:{}", i + 1);
        if l.starts_with('\t') || l == "SIGPIPE - Broken pipe (AI program no longer running)" {
            continue; // the judge's debug output
        }
        let mut rest = l;
        // `<turn> <RED|BLU>: ...`
        let mut head = l.splitn(3, ' ');
        if let (Some(turn), Some(side)) = (head.next(), head.next()) {
            if let (Ok(turn), Some(side)) = (
                turn.parse::<usize>(),
                side.strip_suffix(':').and_then(colour),
            ) {
                rest = head.next().unwrap_or("");
                let ply = g.plies.len() + usize::from(g.no_move);
                assert_eq!(turn, ply / 2 + 1, "{at}: turns count Red+Blue pairs");
                let expected = if ply.is_multiple_of(2) {
                    Side::First
                } else {
                    Side::Second
                };
                assert_eq!(side, expected, "{at}: Red and Blue alternate, Red first");
                // `NO_MOVE`: no answer in time; an empty rest: an empty answer.
                if rest == "NO_MOVE" || rest.trim().is_empty() {
                    g.no_move = true;
                    continue;
                }
                if !rest.starts_with("Game ends on ") {
                    assert!(g.end.is_none() && !g.no_move, "{at}: a move after the end");
                    g.plies.push(read_move(&at, i + 1, side, rest));
                    continue;
                }
            }
        }
        if let Some(end) = rest.strip_prefix("Game ends on ") {
            let (who, reason) = end
                .split_once("'s turn - REASON: ")
                .unwrap_or_else(|| panic!("{at}: unreadable end line"));
            let who = colour(who).unwrap_or_else(|| panic!("{at}: `{who}`"));
            if g.end.is_none() {
                g.end = Some((who, reason.to_string()));
            }
            continue;
        }
        let t: Vec<&str> = l.split_whitespace().collect();
        match t.as_slice() {
            [_, who, result, _, _, _]
                if colour(who).is_some()
                    && matches!(*result, "VICTORY" | "ILLEGAL" | "DRAW_DEFAULT") =>
            {
                assert!(g.summary.is_none(), "{at}: a second summary line");
                g.summary = Some((colour(who).expect("checked"), result.to_string()));
            }
            _ => panic!("{at}: unknown line `{l}`"),
        }
    }
    assert!(g.end.is_some(), "{name}: no end line");
    g
}

/// `<x> <y> <DIR> [<n>] <outcome> [<a> <d>]`.
fn read_move(at: &str, line: usize, side: Side, text: &str) -> UccPly {
    let mut t = text.split_whitespace().peekable();
    let mut num = |what: &str| -> i32 {
        t.next()
            .and_then(|s| s.parse().ok())
            .unwrap_or_else(|| panic!("{at}: {what} expected in `{text}`"))
    };
    let (x, y) = (num("x"), num("y"));
    let (dx, dy) = match t.next() {
        Some("UP") => (0, -1),
        Some("DOWN") => (0, 1),
        Some("LEFT") => (-1, 0),
        Some("RIGHT") => (1, 0),
        other => panic!("{at}: direction expected, not {other:?}"),
    };
    let n = match t.peek().and_then(|s| s.parse::<i32>().ok()) {
        Some(n) => {
            t.next();
            n
        }
        None => 1,
    };
    let judged = match t.next() {
        Some("OK") => Judged::Ok,
        Some("VICTORY_FLAG") => Judged::VictoryFlag,
        Some("ILLEGAL") => Judged::Illegal,
        Some(w @ ("KILLS" | "DIES" | "BOTHDIE")) => {
            let a = kind_of(t.next(), at);
            let d = kind_of(t.next(), at);
            match w {
                "KILLS" => Judged::Kills(a, d),
                "DIES" => Judged::Dies(a, d),
                _ => Judged::BothDie(a, d),
            }
        }
        other => panic!("{at}: outcome expected, not {other:?}"),
    };
    assert!(t.next().is_none(), "{at}: trailing text in `{text}`");
    UccPly {
        line,
        side,
        from: (x, y),
        to: (x + dx * n, y + dy * n),
        judged,
    }
}

/// The native square of the judge's (x, y): file `a` + x, rank y + 1.
fn square(at: &str, (x, y): (i32, i32)) -> String {
    assert!(
        (0..26).contains(&x),
        "{at}: column {x} cannot be written as a file letter"
    );
    format!("{}{}", (b'a' + x as u8) as char, y + 1)
}

/// How the judge ended the game, as the native log records it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Ending {
    /// `Captured the flag`.
    Flag,
    /// `Destroyed all mobile enemy pieces`.
    NoMobile,
    /// `Game declared a draw after 1000 turns`.
    Draw,
    /// The summary says ILLEGAL: an illegal move, no answer, or a judge error.
    Forfeit,
    /// A bot crashed and the log has no summary line.
    Crash,
}

impl UccGame {
    fn ending(&self) -> Ending {
        let (_, reason) = self.end.as_ref().expect("read_game checks it");
        match (reason.as_str(), self.summary.as_ref().map(|s| s.1.as_str())) {
            ("Captured the flag", Some("VICTORY") | None) => Ending::Flag,
            ("Destroyed all mobile enemy pieces", Some("VICTORY")) => Ending::NoMobile,
            ("Game declared a draw after 1000 turns", Some("DRAW_DEFAULT")) => Ending::Draw,
            (_, Some("ILLEGAL")) => Ending::Forfeit,
            (r, None) if r.starts_with("SIGPIPE") => Ending::Crash,
            other => panic!("{}: unexpected ending {other:?}", self.name),
        }
    }

    /// The recorded winner (`None` for a draw or an unknown result).
    fn winner(&self) -> Option<Side> {
        match self.ending() {
            Ending::Flag => {
                let last = self.plies.last().expect("a flag capture is a move");
                assert_eq!(last.judged, Judged::VictoryFlag, "{}", self.name);
                if let Some((who, _)) = &self.summary {
                    assert_eq!(*who, last.side, "{}: the flag's captor won", self.name);
                }
                Some(last.side)
            }
            Ending::NoMobile => self.summary.as_ref().map(|s| s.0),
            Ending::Forfeit => self.summary.as_ref().map(|s| s.0.other()),
            Ending::Draw | Ending::Crash => None,
        }
    }
}

/// Every game file, sorted by path.
fn games() -> Option<Vec<UccGame>> {
    let dir = corpus_dir("stratego-ucc2012")?;
    let mut paths: Vec<_> = walk(&dir);
    paths.sort();
    Some(
        paths
            .iter()
            .map(|p| {
                let name = p
                    .strip_prefix(&dir)
                    .expect("under the corpus")
                    .to_string_lossy()
                    .into_owned();
                let mut g = read_game(&name, &std::fs::read_to_string(p).expect("readable"));
                g.path = p.clone();
                g
            })
            .collect(),
    )
}

fn walk(dir: &Path) -> Vec<std::path::PathBuf> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).expect("readable folder") {
        let p = e.expect("entry").path();
        if p.is_dir() {
            out.extend(walk(&p));
        } else if p.file_name().is_some_and(|n| n != "SOURCE.md") {
            out.push(p);
        }
    }
    out
}

/// What the comparison of one game found.
#[derive(Debug, Default, PartialEq, Eq)]
struct Tally {
    games: usize,
    plies: usize,
    combats: usize,
    kills: usize,
    dies: usize,
    both_die: usize,
    flags: usize,
    illegal: usize,
    no_mobile_agreeing: usize,
    no_mobile_own_move: usize,
    draws: usize,
    forfeits: usize,
    crashes: usize,
    crashes_without_legal_move: usize,
}

/// True when `side` has a piece that can step somewhere: a movable piece next to a square on
/// the board that is neither a lake nor the side's own piece. Written here from the judge's
/// board description (lakes at x = 2, 3, 6, 7 on rows 4 and 5), independently of the engine.
fn can_move(st: &State, side: Side) -> bool {
    let lake = |x: i32, y: i32| matches!(x, 2 | 3 | 6 | 7) && matches!(y, 4 | 5);
    (0..100).any(|i| {
        let (x, y) = (i % 10, i / 10);
        st.board[i as usize].is_some_and(|p| {
            p.side == side
                && !matches!(p.kind, Kind::Bomb | Kind::Flag)
                && [(0, 1), (0, -1), (1, 0), (-1, 0)].iter().any(|(dx, dy)| {
                    let (tx, ty) = (x + dx, y + dy);
                    (0..10).contains(&tx)
                        && (0..10).contains(&ty)
                        && !lake(tx, ty)
                        && st.board[(ty * 10 + tx) as usize].is_none_or(|q| q.side != side)
                })
        })
    })
}

/// The importer's players, setups and moves against this test's own reading of the lines.
fn the_importer_reads_what_the_judge_wrote(g: &UccGame, record: &GameRecord) {
    assert_eq!(
        record.tag_value("Red"),
        Some(g.red_bot.as_str()),
        "{}",
        g.name
    );
    assert_eq!(
        record.tag_value("Blue"),
        Some(g.blue_bot.as_str()),
        "{}",
        g.name
    );
    let letters = |row: &String| -> String {
        row.chars()
            .map(|c| kind(c).map_or('.', |k| k.letter()))
            .collect()
    };
    for (block, rows, first) in [(0, &g.red, 1), (1, &g.blue, 7)] {
        let read: Vec<(u32, &str)> = record.setups[block]
            .rows
            .iter()
            .map(|r| (r.rank.value, r.cells.value.as_str()))
            .collect();
        let want: Vec<(u32, String)> = rows
            .iter()
            .enumerate()
            .map(|(i, r)| (first + i as u32, letters(r)))
            .collect();
        let want: Vec<(u32, &str)> = want.iter().map(|(r, c)| (*r, c.as_str())).collect();
        assert_eq!(read, want, "{}: setup {block}", g.name);
    }
    for (p, m) in g.plies.iter().zip(&record.moves) {
        let at = format!("{}:{}", g.name, p.line);
        let attack = !matches!(p.judged, Judged::Ok | Judged::Illegal);
        let text = format!(
            "{}{}{}",
            square(&at, p.from),
            if attack { 'x' } else { '-' },
            square(&at, p.to)
        );
        assert_eq!(m.text(), text, "{at}");
    }
}

/// Steps arbiter's engine through the imported game and compares every ply with the judge.
/// Returns the side to move after the last ply and whether it can move (`None` when the game
/// ends with a move the judge found illegal).
fn compare_plies(g: &UccGame, record: &GameRecord, tally: &mut Tally) -> Option<(Side, bool)> {
    assert!(
        record.findings.is_empty(),
        "{}: {:?}",
        g.name,
        record.findings
    );
    assert_eq!(record.moves.len(), g.plies.len(), "{}", g.name);
    the_importer_reads_what_the_judge_wrote(g, record);
    let engine = Stratego::new(GameId::Stratego).expect("stratego");
    let (params, _, _) =
        parameters_for(record, GameId::Stratego, &Overrides::default()).expect("parameters");
    assert_eq!(
        (params.two_squares.map(|t| t.count()), params.more_squares),
        (Some(0), Some(false)),
        "{}: the judge had no two-squares or chase rule",
        g.name
    );
    let mut st = engine
        .start(record, &params, &mut Vec::new())
        .unwrap_or_else(|e| panic!("{}: setup rejected: {e:?}", g.name));
    for (i, (p, mv)) in g.plies.iter().zip(&record.moves).enumerate() {
        let at = format!("{}:{} (ply {})", g.name, p.line, i + 1);
        let sq = |(x, y): (i32, i32)| (y * 10 + x) as usize;
        let on_board = |(x, y): (i32, i32)| (0..10).contains(&x) && (0..10).contains(&y);
        let attacker = st.board[sq(p.from)].unwrap_or_else(|| panic!("{at}: no piece"));
        let defender = if on_board(p.to) {
            st.board[sq(p.to)]
        } else {
            None
        };
        let played = engine.play(&mut st, mv, i as u32 + 1);
        if p.judged == Judged::Illegal {
            let f = played.expect_err(&at);
            assert_eq!(f.code, Code::IllegalMove, "{at}: {}", f.message);
            assert_eq!(i + 1, g.plies.len(), "{at}: the judge ends the game here");
            tally.illegal += 1;
            return None;
        }
        played.unwrap_or_else(|f| {
            panic!(
                "{at}: arbiter rejects a move the judge allowed: {}",
                f.message
            )
        });
        tally.plies += 1;
        assert_eq!(attacker.side, p.side, "{at}");
        let here = st.board[sq(p.to)];
        assert!(
            st.board[sq(p.from)].is_none(),
            "{at}: the from-square is left"
        );
        match p.judged {
            Judged::Ok => {
                assert_eq!(defender, None, "{at}: OK is a move to an empty square");
                assert_eq!(here.map(|x| x.id), Some(attacker.id), "{at}");
            }
            Judged::Kills(a, d) | Judged::Dies(a, d) | Judged::BothDie(a, d) => {
                tally.combats += 1;
                let def = defender.unwrap_or_else(|| panic!("{at}: the judge saw a combat"));
                assert_eq!((attacker.kind, def.kind), (a, d), "{at}: who met");
                assert_ne!(def.side, p.side, "{at}");
                let (expected, counter) = match p.judged {
                    Judged::Kills(..) => (Some(attacker.id), &mut tally.kills),
                    Judged::Dies(..) => (Some(def.id), &mut tally.dies),
                    _ => (None, &mut tally.both_die),
                };
                *counter += 1;
                assert_eq!(
                    here.map(|x| x.id),
                    expected,
                    "{at}: arbiter's combat differs from the judge's {:?}",
                    p.judged
                );
            }
            Judged::VictoryFlag => {
                let def = defender.unwrap_or_else(|| panic!("{at}: no piece on the target"));
                assert_eq!(def.kind, Kind::Flag, "{at}");
                assert_eq!(here.map(|x| x.id), Some(attacker.id), "{at}");
                assert_eq!(st.flag_lost, Some(p.side.other()), "{at}");
                tally.flags += 1;
            }
            Judged::Illegal => unreachable!(),
        }
    }
    Some((st.to_move, can_move(&st, st.to_move)))
}

/// Checks the verdict of the whole pipeline on the imported game. `after` is what
/// [`compare_plies`] saw after the last ply: the side to move and whether it can move.
fn compare_verdict(g: &UccGame, r: &GameReport, after: Option<(Side, bool)>, tally: &mut Tally) {
    let why = format!("{}: {}", g.name, describe(r));
    let errors = error_codes(r);
    let last = g.plies.len() as u32;
    let outcome = r
        .outcome
        .as_ref()
        .map(|o| (o.result, o.reason.as_str(), o.ply));
    let ending = g.ending();
    if ending != Ending::Forfeit || after.is_some() {
        assert_eq!(r.plies as u32, last, "{why}: every ply replayed");
    }
    match ending {
        Ending::Flag => {
            let winner = g.winner().expect("flag captor");
            assert_eq!(
                outcome,
                Some((winner.wins(), "flag-captured", last)),
                "{why}"
            );
            assert_eq!(errors, vec![], "{why}");
        }
        Ending::NoMobile => {
            let winner = g.winner().expect("VICTORY names the winner");
            if g.plies.last().map(|p| p.side) == Some(winner.other()) {
                // The loser lost its last movable piece on its own move: the winner is to
                // move, can move, and the game goes on under rulings §1.1. The recorded
                // on-board termination is therefore not shown by the moves.
                assert_eq!(after, Some((winner, true)), "{why}");
                assert_eq!(outcome, None, "{why}");
                assert_eq!(errors, vec![Code::ResultMismatch], "{why}");
                tally.no_mobile_own_move += 1;
            } else {
                assert_eq!(after, Some((winner.other(), false)), "{why}");
                assert_eq!(
                    outcome,
                    Some((winner.wins(), "no-legal-move", last)),
                    "{why}"
                );
                assert_eq!(errors, vec![], "{why}");
                tally.no_mobile_agreeing += 1;
            }
        }
        Ending::Forfeit if after.is_none() => {
            // Ended by a move the judge found illegal: arbiter stops the replay there.
            assert_eq!(errors, vec![Code::IllegalMove], "{why}");
            let f = r.findings.iter().find(|f| f.code == Code::IllegalMove);
            assert_eq!(f.and_then(|f| f.ply), Some(last), "{why}");
            assert_eq!(r.plies as u32, last - 1, "{why}");
            tally.forfeits += 1;
        }
        Ending::Forfeit | Ending::Draw => {
            assert_eq!(
                after.map(|a| a.1),
                Some(true),
                "{why}: the side to move can move"
            );
            assert_eq!(outcome, None, "{why}");
            assert_eq!(errors, vec![], "{why}");
            if ending == Ending::Draw {
                // The judge's `-m 1000` stops after its turn 999 (1,998 plies).
                assert_eq!(last, 1998, "{why}: the judge's turn limit");
                tally.draws += 1;
            } else {
                tally.forfeits += 1;
            }
        }
        Ending::Crash => {
            // The bot whose turn it was stopped answering; no result was recorded.
            let (to_move, can) = after.expect("no illegal move");
            assert_eq!(Some(to_move), g.end.as_ref().map(|e| e.0), "{why}");
            assert_eq!(errors, vec![], "{why}");
            if can {
                assert_eq!(outcome, None, "{why}");
                tally.crashes += 1;
            } else {
                // Its pieces were all blocked: under rulings §1.1 it had already lost.
                assert_eq!(
                    outcome,
                    Some((to_move.other().wins(), "no-legal-move", last)),
                    "{why}"
                );
                tally.crashes_without_legal_move += 1;
            }
        }
    }
    assert!(
        r.findings.iter().all(|f| f.code != Code::RecordDefect),
        "{why}: move numbers count the judge's turns"
    );
}

/// `convert` writes the record as a native log whose check gives the same plies, outcome and
/// findings (codes, plies, messages).
fn converted_checks_the_same(g: &UccGame, record: &GameRecord, r: &GameReport) {
    let log = arbiter::convert::convert_one(record, &Overrides::default(), None)
        .unwrap_or_else(|e| panic!("{}: convert refused: {e:?}", g.name));
    let again = check_text(&g.name, &log);
    let key = |r: &GameReport| {
        let f: Vec<_> = r
            .findings
            .iter()
            .map(|f| (f.code, f.ply, f.message.clone()))
            .collect();
        (r.plies, r.outcome.clone(), f)
    };
    assert_eq!(key(&again[0]), key(r), "{}: converted\n{log}", g.name);
}

#[test]
fn the_judges_verdicts_agree_with_arbiter() {
    let Some(games) = games() else {
        return;
    };
    let mut tally = Tally::default();
    for g in &games {
        tally.games += 1;
        let src = Source::read(&g.path);
        let records = parse_source(&src);
        assert_eq!(records.len(), 1, "{}: one game a file", g.name);
        let after = compare_plies(g, &records[0], &mut tally);
        let reports = check_source(&src, &Options::default());
        compare_verdict(g, &reports[0], after, &mut tally);
        converted_checks_the_same(g, &records[0], &reports[0]);
    }
    // The numbers of SOURCE.md, and of `grep -c` on the files: 78,851 move lines (78,848
    // applied plus the 3 ILLEGAL ones); 5,233 KILLS, 1,634 DIES, 1,385 BOTHDIE; 101 flag
    // captures; 65 "Destroyed all mobile enemy pieces"; 12 draws; 10 ILLEGAL summaries;
    // 4 crashed bots (one of them, round6/peternlewis.vs.celsius.6.8, crashed with its last
    // Sergeant walled in by its own Bombs: no legal move, so arbiter gives Blue the game).
    assert_eq!(
        tally,
        Tally {
            games: 192,
            plies: 78_848,
            combats: 8_252,
            kills: 5_233,
            dies: 1_634,
            both_die: 1_385,
            flags: 101,
            illegal: 3,
            no_mobile_agreeing: 36,
            no_mobile_own_move: 29,
            draws: 12,
            forfeits: 10,
            crashes: 3,
            crashes_without_legal_move: 1,
        }
    );
}
