//! Real Jungle games: the layhenghok corpus (`../shared/corpus/jungle-layhenghok/`, described in
//! its SOURCE.md) replayed by arbiter's Jungle engine.
//!
//! arbiter reads each saved game as it is (`record::layhenghok`, known by content; the format
//! gives Blue the first move) and the test checks that every ply is legal under the seed's
//! rules, that the position after the last ply equals the 9-line final position in the file
//! (read here by a reader of the test's own), that the ending agrees with SOURCE.md's table, and
//! that the only findings are the ones docs/rules.md explains ("Jungle: differences from the
//! layhenghok program"), and `no-result` where the file records no result. `convert` writes
//! each record as a native log; with `[Variant "elephant-spares-rat"]` (the program's capture
//! rule) added, it gives the same findings.

use arbiter::games::jungle::{fen, Board, Jungle, Kind, Piece, GEOMETRY, SQUARES};
use arbiter::pipeline::{self, GameReport, Options, Source};
use arbiter::rules::{Rules, Side};
use arbiter::Code;
use std::collections::BTreeSet;
use std::path::PathBuf;

fn corpus() -> Option<PathBuf> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus/jungle-layhenghok");
    if dir.is_dir() {
        Some(dir)
    } else {
        println!("SKIPPED: ../shared/corpus/jungle-layhenghok is absent");
        None
    }
}

/// A saved game as the program wrote it.
#[derive(Debug)]
struct Saved {
    /// (side word, optional old-format piece code, from index, to index).
    moves: Vec<(String, Option<String>, u8, u8)>,
    /// `re` or `bl`: the side to move after the last ply.
    to_move: String,
    /// The final position, row 0 (Red's side) first, 7 cells a row.
    rows: Vec<Vec<String>>,
    /// The lines after the board (`normal 60`, `blitz 0 12`, `resign`).
    tail: Vec<String>,
}

fn read_saved(text: &str) -> Saved {
    let lines: Vec<&str> = text.lines().collect();
    let n: usize = lines[1].trim().parse().expect("line 2 is the ply count");
    let moves = lines[2..2 + n]
        .iter()
        .map(|l| {
            let w: Vec<&str> = l.split_whitespace().collect();
            match w.as_slice() {
                [s, f, t] => (s.to_string(), None, f.parse().unwrap(), t.parse().unwrap()),
                [s, p, f, t] => (
                    s.to_string(),
                    Some(p.to_string()),
                    f.parse().unwrap(),
                    t.parse().unwrap(),
                ),
                _ => panic!("bad move line `{l}`"),
            }
        })
        .collect();
    let to_move = lines[2 + n].trim().to_string();
    let rows = lines[3 + n..12 + n]
        .iter()
        .map(|l| l.split_whitespace().map(str::to_string).collect())
        .collect();
    let tail = lines[12 + n..]
        .iter()
        .map(|l| l.trim().to_string())
        .filter(|l| !l.is_empty())
        .collect();
    Saved {
        moves,
        to_move,
        rows,
        tail,
    }
}

/// The program's square index (`row * 7 + column`, row 0 on Red's side, column 0 on the left as
/// Blue sees it) as arbiter's square name: file `g` - column, rank row + 1 (the Red Tiger's
/// start, index 6, is a1 as in rulings §3).
fn square(index: u8) -> String {
    let (row, col) = (index / 7, index % 7);
    format!("{}{}", (b'a' + 6 - col) as char, row + 1)
}

fn kind_of(code: &str) -> Kind {
    match code.to_ascii_lowercase().as_str() {
        "ra" => Kind::Rat,
        "ca" => Kind::Cat,
        "do" => Kind::Dog,
        "wo" => Kind::Wolf,
        "le" => Kind::Leopard,
        "ti" => Kind::Tiger,
        "li" => Kind::Lion,
        "el" => Kind::Elephant,
        other => panic!("unknown piece code `{other}`"),
    }
}

fn final_board(s: &Saved) -> Board {
    let mut b: Board = [None; SQUARES];
    for (row, cells) in s.rows.iter().enumerate() {
        assert_eq!(cells.len(), 7, "row {row}");
        for (col, c) in cells.iter().enumerate() {
            if c == "**" {
                continue;
            }
            let side = if c.chars().all(|ch| ch.is_ascii_uppercase()) {
                Side::Second
            } else {
                Side::First
            };
            let sq = GEOMETRY
                .square(6 - col as i32, row as i32)
                .expect("on the board");
            b[sq as usize] = Some(Piece {
                side,
                kind: kind_of(c),
                id: 0,
            });
        }
    }
    b
}

/// SOURCE.md's table: plies, and the on-board ending arbiter must find (reason, result) or
/// `None` for a game the moves leave unfinished (saved during play, lost on time, resigned).
type Ending = Option<(&'static str, &'static str)>;

const TABLE: &[(&str, char, usize, Ending)] = &[
    ("AI_Game_1__0a03271.txt", 'A', 51, None),
    ("AI_Game_1__b6084f6.txt", 'A', 51, None),
    ("Blue_AI_Game__d1c26b7.txt", 'A', 51, None),
    ("Red_Human_Blue_AI__7052a88.txt", 'A', 51, None),
    ("AI_Game_2__0a03271.txt", 'B', 30, None),
    ("Red_AI_Game__d1c26b7.txt", 'B', 30, None),
    ("Blue_Human_Red_AI__7052a88.txt", 'B', 30, None),
    ("Two-Player_Game__0a03271.txt", 'C', 30, None),
    ("Two-Player_Game__d1c26b7.txt", 'C', 30, None),
    ("Blue_Human_Red_Human__7052a88.txt", 'C', 30, None),
    (
        "Replay_2023-07-01_15-52-39__7052a88.txt",
        'D',
        120,
        Some(("no-legal-move", "1-0")),
    ),
    (
        "Replay_2023-07-01_15-57-08__7052a88.txt",
        'E',
        45,
        Some(("den-entered", "0-1")),
    ),
    (
        "Replay_2023-07-01_16-43-45__7052a88.txt",
        'F',
        91,
        Some(("no-legal-move", "0-1")),
    ),
    ("Replay_2023-07-01_16-51-54__7052a88.txt", 'G', 108, None),
    ("Replay_2023-07-08_22-27-26__7052a88.txt", 'H', 56, None),
    (
        "Replay_2023-07-28_14-32-13__7052a88.txt",
        'I',
        97,
        Some(("den-entered", "0-1")),
    ),
    (
        "Replay_2023-07-30_23-04-01_Beat_my_own_bot__c2df78f.txt",
        'J',
        173,
        Some(("den-entered", "0-1")),
    ),
];

/// The findings arbiter reports on each sequence, as (code, ply); docs/rules.md explains them.
/// A file that records no result (no blitz clock at 0, no `resign` line) also gets the info
/// `no-result` (no ply).
fn expected_findings(seq: char) -> Vec<(Code, u32)> {
    let mut out = if matches!(seq, 'G' | 'H') {
        Vec::new()
    } else {
        vec![(Code::NoResult, 0)]
    };
    out.extend(repetition_findings(seq));
    out
}

/// The repetition findings of each sequence, as (code, ply).
fn repetition_findings(seq: char) -> Vec<(Code, u32)> {
    match seq {
        // Red's piece shuttles e1-f1 against a Blue piece on e2/f2: the position after ply 64
        // stands again after 68 and 72.
        'G' => vec![(Code::ThreefoldRepetition, 72)],
        // Both Elephants shuttle (Red's b3/c3/c2, Blue's e7/f7): plies 50 and 51 each create a
        // position for the third time while the moving Elephant could take the other one.
        'I' => vec![
            (Code::JungleRepetition, 50),
            (Code::ThreefoldRepetition, 50),
            (Code::JungleRepetition, 51),
            (Code::ThreefoldRepetition, 51),
        ],
        // Red's Rat shuttles e3/f3/e4 against Blue's Elephant on g3/g4/g5: ply 106 repeats the
        // position of plies 98 and 102, and the Rat could take the Elephant that just moved.
        'J' => vec![
            (Code::JungleRepetition, 106),
            (Code::ThreefoldRepetition, 106),
        ],
        _ => vec![],
    }
}

/// The findings of a report as (code, ply; 0 for none).
fn found(r: &GameReport) -> Vec<(Code, u32)> {
    r.findings
        .iter()
        .map(|f| (f.code, f.ply.unwrap_or(0)))
        .collect()
}

#[test]
fn layhenghok_games_replay_legally_to_the_saved_final_position() {
    let Some(dir) = corpus() else {
        return;
    };
    let mut sequences = BTreeSet::new();
    let mut checked = 0;
    let mut mismatches = Vec::new();
    for &(file, seq, plies, ending) in TABLE {
        let path = dir.join(file);
        let saved = read_saved(&std::fs::read_to_string(&path).expect(file));
        assert_eq!(saved.moves.len(), plies, "{file}");
        sequences.insert(saved.moves.iter().map(|m| (m.2, m.3)).collect::<Vec<_>>());
        let src = Source::read(&path);
        let reports = pipeline::check_source(&src, &Options::default());
        assert_eq!(reports.len(), 1);
        let r = &reports[0];
        assert_eq!(
            r.game,
            Some(arbiter::rules::GameId::Jungle),
            "{file}: known by content"
        );
        if found(r) != expected_findings(seq) {
            mismatches.push(format!("{file} ({seq}): {:?}\n{:#?}", found(r), r.findings));
            continue;
        }
        assert_eq!(r.plies, plies, "{file}: every ply replayed");
        let outcome = r
            .outcome
            .as_ref()
            .map(|o| (o.reason.as_str(), o.result.as_str()));
        assert_eq!(outcome, ending, "{file}: the ending");
        if let Some(o) = &r.outcome {
            assert_eq!(o.ply as usize, plies, "{file}: ends on the last ply");
        }
        let rec = &pipeline::parse_source(&src)[0];
        the_importer_reads_what_the_file_says(file, rec, &saved, r);
        final_position(file, rec, &saved, r);
        the_programs_rule_gives_the_same_findings(file, rec, r);
        checked += 1;
    }
    assert!(mismatches.is_empty(), "{}", mismatches.join("\n"));
    assert_eq!(checked, 17);
    assert_eq!(sequences.len(), 10, "SOURCE.md: 10 distinct move sequences");
}

/// The importer's moves against this test's own reading of the squares, and its result against
/// the file's last lines (a blitz clock at 0 loses on time, `resign` records a resignation).
fn the_importer_reads_what_the_file_says(
    file: &str,
    rec: &arbiter::record::GameRecord,
    saved: &Saved,
    r: &GameReport,
) {
    let moves: Vec<String> = saved
        .moves
        .iter()
        .map(|(_, _, f, t)| format!("{}-{}", square(*f), square(*t)))
        .collect();
    let read: Vec<&str> = rec.moves.iter().map(|m| m.text()).collect();
    assert_eq!(read, moves, "{file}: the moves");
    let words: Vec<Vec<&str>> = saved
        .tail
        .iter()
        .map(|l| l.split_whitespace().collect())
        .collect();
    let (result, termination) = match words.iter().map(Vec::as_slice).collect::<Vec<_>>()[..] {
        [.., ["resign"]] => (Some("*"), Some("resignation")),
        [["blitz", "0", _], ..] => (Some("1-0"), Some("time")),
        [["blitz", _, "0"], ..] => (Some("0-1"), Some("time")),
        _ => (None, None),
    };
    assert_eq!(r.result.map(|x| x.as_str()), result, "{file}: result");
    assert_eq!(r.termination.as_deref(), termination, "{file}: termination");
}

/// The final position, replayed by the engine itself, against the file's 9 lines.
fn final_position(file: &str, rec: &arbiter::record::GameRecord, saved: &Saved, r: &GameReport) {
    let (params, _, _) =
        pipeline::parameters_for(rec, arbiter::rules::GameId::Jungle, &Default::default())
            .expect("parameters");
    let engine = Jungle::new();
    let mut st = engine.start(rec, &params, &mut Vec::new()).expect("start");
    for (i, mv) in rec.moves.iter().enumerate() {
        engine.play(&mut st, mv, i as u32 + 1).expect("legal ply");
    }
    let to_move = match saved.to_move.as_str() {
        "re" => Side::First,
        "bl" => Side::Second,
        other => panic!("{file}: side line `{other}`"),
    };
    assert_eq!(
        fen(&st.board, st.to_move),
        fen(&final_board(saved), to_move),
        "{file}: final position"
    );
    assert_eq!(
        r.replay
            .as_ref()
            .and_then(|p| p.plies.last())
            .map(|p| p.key),
        Some(st.key),
        "{file}: the pipeline's last key is the engine's"
    );
}

/// `convert` writes the record as a native log that checks the same; with the program's
/// capture rule (`elephant-spares-rat`) the findings are the same too.
fn the_programs_rule_gives_the_same_findings(
    file: &str,
    rec: &arbiter::record::GameRecord,
    r: &GameReport,
) {
    let log = arbiter::convert::convert_one(rec, &Default::default(), None)
        .unwrap_or_else(|e| panic!("{file}: convert refused: {e:?}"));
    for variant in [None, Some("elephant-spares-rat")] {
        let text = match variant {
            Some(v) => log.replacen("\n", &format!("\n[Variant \"{v}\"]\n"), 1),
            None => log.clone(),
        };
        let again = pipeline::check_source(
            &Source::from_bytes(file, text.clone().into_bytes()),
            &Options::default(),
        );
        assert_eq!(found(&again[0]), found(r), "{file} {variant:?}:\n{text}");
        assert_eq!(again[0].outcome, r.outcome, "{file} {variant:?}");
    }
}

/// The folder walked as a directory: every save is taken by its content though it is named
/// `.txt` (the extension a DhtmlXQ page may have too), 17 games.
#[test]
fn the_folder_walked_takes_every_save() {
    let Some(dir) = corpus() else {
        return;
    };
    let inputs = arbiter::input::expand(&[dir]);
    let files = inputs
        .iter()
        .filter(|i| matches!(i, arbiter::input::Input::File(_)))
        .count();
    assert_eq!((inputs.len(), files), (17, 17));
}
