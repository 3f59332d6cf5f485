//! Real Jungle games: the layhenghok corpus (`../shared/corpus/jungle-layhenghok/`, described in
//! its SOURCE.md) replayed by arbiter's Jungle engine.
//!
//! A test-only reader turns each saved game into a native log (`[FirstMove "blue"]`: that
//! program lets Blue move first) and checks that every ply is legal under the seed's rules,
//! that the position after the last ply equals the 9-line final position in the file, that the
//! ending agrees with SOURCE.md's table, and that the only findings are the ones docs/rules.md
//! explains ("Jungle: differences from the layhenghok program").

use arbiter::games::jungle::{fen, Board, Jungle, Kind, Piece, GEOMETRY, SQUARES};
use arbiter::pipeline::{self, Options, Source};
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
fn expected_findings(seq: char) -> Vec<(Code, u32)> {
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

/// Writes a saved game as a native log; `Result` and `Termination` come from the table and the
/// file's last lines.
fn native(s: &Saved, ending: Option<(&str, &str)>, variant: &str) -> String {
    let mut out = String::from("[Game \"jungle\"]\n[FirstMove \"blue\"]\n");
    out.push_str(&format!("[Variant \"{variant}\"]\n"));
    let (result, term) = match ending {
        Some((_, r)) => (r, None),
        None if s.tail.iter().any(|l| l == "resign") => ("*", Some("resignation")),
        None => match s
            .tail
            .first()
            .map(|l| l.split_whitespace().collect::<Vec<_>>())
        {
            Some(w) if w.first() == Some(&"blitz") && w.get(1) == Some(&"0") => {
                ("1-0", Some("time"))
            }
            Some(w) if w.first() == Some(&"blitz") && w.get(2) == Some(&"0") => {
                ("0-1", Some("time"))
            }
            _ => ("*", None),
        },
    };
    out.push_str(&format!("[Result \"{result}\"]\n"));
    if let Some(t) = term {
        out.push_str(&format!("[Termination \"{t}\"]\n"));
    }
    out.push('\n');
    for (i, (side, piece, from, to)) in s.moves.iter().enumerate() {
        let expected = if i % 2 == 0 { "bl" } else { "re" };
        assert_eq!(side, expected, "ply {}: sides alternate, Blue first", i + 1);
        out.push_str(&format!("{}-{}", square(*from), square(*to)));
        if let Some(p) = piece {
            // The old format names the moving piece: arbiter checks it as an annotation.
            out.push_str(&format!("({})", kind_of(p).letter()));
        }
        out.push(if i % 10 == 9 { '\n' } else { ' ' });
    }
    out.push_str(result);
    out.push('\n');
    out
}

#[test]
fn layhenghok_games_replay_legally_to_the_saved_final_position() {
    let Some(dir) = corpus() else {
        return;
    };
    let mut sequences = BTreeSet::new();
    let mut checked = 0;
    let mut mismatches = Vec::new();
    // The seed's rules, then the layhenghok program's capture rule (its Elephant cannot take the
    // Rat): the games are legal under both, with the same findings.
    for (variant, &(file, seq, plies, ending)) in ["jijbent", "elephant-spares-rat"]
        .iter()
        .flat_map(|v| TABLE.iter().map(move |t| (*v, t)))
    {
        let text = std::fs::read_to_string(dir.join(file)).expect(file);
        let saved = read_saved(&text);
        assert_eq!(saved.moves.len(), plies, "{file}");
        sequences.insert(saved.moves.iter().map(|m| (m.2, m.3)).collect::<Vec<_>>());
        let log = native(&saved, ending, variant);
        let src = Source::from_bytes(format!("{file}.arb"), log.into_bytes());
        let reports = pipeline::check_source(&src, &Options::default());
        assert_eq!(reports.len(), 1);
        let r = &reports[0];
        let found: Vec<(Code, u32)> = r
            .findings
            .iter()
            .map(|f| (f.code, f.ply.unwrap_or(0)))
            .collect();
        if found != expected_findings(seq) {
            mismatches.push(format!(
                "{file} ({seq}, {variant}): {found:?}\n{:#?}",
                r.findings
            ));
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

        // The final position, replayed by the engine itself, against the file's 9 lines.
        let rec = &pipeline::parse_source(&src)[0];
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
            fen(&final_board(&saved), to_move),
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
        checked += 1;
    }
    assert!(mismatches.is_empty(), "{}", mismatches.join("\n"));
    assert_eq!(checked, 2 * 17);
    assert_eq!(sequences.len(), 10, "SOURCE.md: 10 distinct move sequences");
}

/// Every game of the corpus as a native log under the seed's rules (for `from_ply.rs`); empty
/// when the corpus is absent.
pub(crate) fn native_logs() -> Vec<String> {
    let Some(dir) = corpus() else {
        return Vec::new();
    };
    TABLE
        .iter()
        .map(|&(file, _, _, ending)| {
            let text = std::fs::read_to_string(dir.join(file)).expect(file);
            native(&read_saved(&text), ending, "jijbent")
        })
        .collect()
}
