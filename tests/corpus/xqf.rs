//! The 736 real XQF files in `../shared/corpus/xiangqi-xqf/` (SOURCE.md and MANIFEST.tsv
//! there), read with `record::xqf::read_xqf`, every line of play replayed by the Xiangqi engine.
//!
//! Expected figures, from SOURCE.md unless said otherwise:
//! - 736 records, 122 of version 10 (XQF 1.0) and 614 scrambled. Per version byte: SOURCE.md's
//!   table gives the game_book sample (10: 120, 11: 90, 12: 120, 13: 91, 15: 60, 16: 120,
//!   18: 110, and its bad_games record); the 25 other files (cchess tests, eleeye samples) add
//!   their version bytes as stored (byte 2 of each file, looked at with `od`): 10: 2, 12: 1,
//!   16: 3, 18: 19 including bad_games.
//! - 45,726 main-line plies; record types 524 full game, 189 endgame, 13 middle game,
//!   10 opening; 114 records hold variations; 225 hold comments on moves (SOURCE.md's
//!   "hold comments": 279 hold a comment when the game comments before the first move, in
//!   163 records, are counted too); 6 have no moves; 17 "full game" records start from a
//!   position other than the standard one.
//! - Findings (`record-defect`, checked by decoding with Python's gb18030 codec): 9 texts cut
//!   inside a two-byte character by their 16-byte field (6 Site, 2 Annotator, 1 Red), and the
//!   comment of cchess's game_test.xqf, whose move 30 holds a stray byte; nothing else.
//! - Replay (Fairy-Stockfish cross-check in SOURCE.md): main lines 734 legal, 2 with an
//!   illegal move (BadMoveTest3 ply 10, e1f0; 1990 全国个人赛 #195 ply 155, f5f4); 101 end in
//!   checkmate, 5 in stalemate; one line of the bad_games record is illegal although its main
//!   line is legal.
//! - Lines: 1,810 (736 main lines, 1,074 variations). Not SOURCE.md's figures for single files
//!   (WildHouse 278 lines, bad_games 17, FiveGoatsTest 10,065): cchess's own test says
//!   WildHouse has 139 (`branchs`, which starts at 1), and every tree here is read to its last
//!   byte. Fairy-Stockfish (ffish 0.7.10, scripts/node_modules) on all 1,810 lines, each from
//!   the start: 1,805 legal, 5 with an illegal move, those found here (the two main lines, then
//!   bad_games line 9 ply 13 c6c5, 江湖排局集成 第104局 line 3 ply 50 d9e9, WildHouse line 41
//!   ply 74 e7f7).

use crate::corpus_support;

use arbiter::games::{engine, replay_game};
use arbiter::record::xqf::read_xqf;
use arbiter::record::{GameRecord, MoveRecord};
use arbiter::rules::{Parameters, RepetitionMode};
use arbiter::types::{EndReason, GameId};
use arbiter::Code;
use std::collections::BTreeMap;
use std::path::PathBuf;

const START_BOARD: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR";

fn files(dir: &std::path::Path) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = walkdir::WalkDir::new(dir)
        .into_iter()
        .flatten()
        .filter(|e| e.file_type().is_file())
        .map(|e| e.into_path())
        .filter(|p| p.extension().is_some_and(|x| x.eq_ignore_ascii_case("xqf")))
        .collect();
    out.sort();
    out
}

/// How one line replays: a game of its own, [`GameRecord::line_plies`] from the start.
#[derive(Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Replayed {
    /// Every ply applied.
    Full,
    /// Ended on the board (checkmate, stalemate) with moves after it.
    MovesAfterEnd,
    /// Stopped at ply `n` by this code.
    Stopped(u32, Code, String),
}

fn replay(
    rec: &GameRecord,
    moves: Vec<MoveRecord>,
    params: &Parameters,
) -> (Replayed, Option<EndReason>) {
    let game = GameRecord {
        moves,
        variations: Vec::new(),
        comments: Vec::new(),
        ..rec.clone()
    };
    let r = replay_game(GameId::Xiangqi, &game, params, &mut |_, _| {});
    let how = if r.stopped {
        let f = r.findings.last().expect("a stop has its finding");
        Replayed::Stopped(f.ply.unwrap_or(0), f.code, f.message.clone())
    } else if r.findings.iter().any(|f| f.code == Code::MovesAfterEnd) {
        Replayed::MovesAfterEnd
    } else {
        Replayed::Full
    };
    (how, r.outcome.map(|o| o.reason))
}

/// The corpus figures: counts by key, and the lines whose replay stopped.
#[derive(Default)]
struct Tally {
    records: usize,
    /// `XqfVersion`, `XqfType`, finding (code and message), main-line end, line replay.
    counts: BTreeMap<String, usize>,
    main_plies: usize,
    lines: usize,
    with_variations: usize,
    with_move_comments: usize,
    with_comments: usize,
    no_moves: usize,
    full_game_other_start: usize,
    main_stops: Vec<String>,
    variation_stops: Vec<String>,
}

impl Tally {
    fn count(&mut self, key: String) {
        *self.counts.entry(key).or_default() += 1;
    }

    fn add(&mut self, name: &str, rec: &GameRecord, params: &Parameters) {
        assert!(!rec.unreadable(), "{name}: {:?}", rec.findings);
        self.records += 1;
        for f in &rec.findings {
            self.count(format!("{} {}", f.code, f.message));
        }
        self.count(format!("version {}", rec.tag_value("XqfVersion").unwrap()));
        let kind = rec.tag_value("XqfType").unwrap();
        self.count(format!("type {kind}"));
        self.main_plies += rec.moves.len();
        self.lines += 1 + rec.variations.len();
        self.with_variations += usize::from(!rec.variations.is_empty());
        let on_moves = rec.comments.iter().any(|c| c.line > 0 || c.after > 0);
        self.with_move_comments += usize::from(on_moves);
        self.with_comments += usize::from(!rec.comments.is_empty());
        self.no_moves += usize::from(rec.moves.is_empty());
        let board = rec.tag_value("FEN").unwrap().split(' ').next().unwrap();
        self.full_game_other_start += usize::from(kind == "full game" && board != START_BOARD);
        for i in 0..=rec.variations.len() {
            let moves = rec.line_plies(i).into_iter().cloned().collect();
            let (how, end) = replay(rec, moves, params);
            if let (0, Some(end)) = (i, end) {
                self.count(format!("main line ends in {end}"));
            }
            match &how {
                Replayed::Full => self.count("line replayed fully".into()),
                Replayed::MovesAfterEnd => self.count("line goes on after its end".into()),
                Replayed::Stopped(..) => {
                    self.count("line stopped".into());
                    let stop = format!("{name} line {i}: {how:?}");
                    match i {
                        0 => self.main_stops.push(stop),
                        _ => self.variation_stops.push(stop),
                    }
                }
            }
        }
    }
}

#[test]
fn every_xqf_record_reads_with_the_figures_of_source_md_and_every_line_replays() {
    let Some(dir) = corpus_support::corpus_dir("xiangqi-xqf") else {
        return;
    };
    let mut params = engine(GameId::Xiangqi).default_parameters();
    // Archives play on after a third occurrence: each line is replayed to its last move.
    params.repetition = Some(RepetitionMode::Claim);
    let mut t = Tally::default();
    for path in files(&dir) {
        let name = path.strip_prefix(&dir).unwrap().display().to_string();
        t.add(&name, &read_xqf(&std::fs::read(&path).unwrap(), 0), &params);
    }
    println!("{:#?}", t.counts);
    println!(
        "main lines stopped: {:#?}\nvariations stopped: {:#?}",
        t.main_stops, t.variation_stops
    );
    let want = [
        ("version 1.0", 122),
        ("version 1.1", 90),
        ("version 1.2", 121),
        ("version 1.3", 91),
        ("version 1.5", 60),
        ("version 1.6", 123),
        ("version 1.8", 129),
        ("type full game", 524),
        ("type endgame", 189),
        ("type middle game", 13),
        ("type opening", 10),
        (
            "record-defect the Annotator text is cut inside a character",
            2,
        ),
        ("record-defect the Red text is cut inside a character", 1),
        ("record-defect the Site text is cut inside a character", 6),
        (
            "record-defect the comment text is not GB18030 from byte 2068",
            1,
        ),
        ("main line ends in checkmate", 101),
        ("main line ends in stalemate", 5),
        ("line replayed fully", 1805),
        ("line stopped", 5),
    ];
    let want: BTreeMap<String, usize> = want.into_iter().map(|(k, n)| (k.to_string(), n)).collect();
    assert_eq!(t.counts, want);
    assert_eq!(t.records, 736);
    assert_eq!(t.records - t.counts["version 1.0"], 614, "scrambled");
    assert_eq!(t.main_plies, 45_726, "main-line plies");
    assert_eq!(
        (t.with_variations, t.with_move_comments, t.with_comments),
        (114, 225, 279)
    );
    assert_eq!(t.no_moves, 6);
    assert_eq!(
        t.full_game_other_start, 17,
        "full-game records with another start"
    );
    assert_eq!(t.lines, 1810);
    let stop = |list: &[String], i: usize, name: &str, at: &str| {
        assert!(list[i].contains(name) && list[i].contains(at), "{list:#?}");
    };
    let (main, variations) = (&t.main_stops, &t.variation_stops);
    assert_eq!((main.len(), variations.len()), (2, 3));
    stop(
        main,
        0,
        "195 - 上海万春林",
        "line 0: Stopped(155, IllegalMove",
    );
    stop(
        main,
        1,
        "BadMoveTest3",
        "line 0: Stopped(10, IllegalMove, \"no piece on e1\"",
    );
    stop(
        variations,
        0,
        "bad_games/bad_035",
        "line 9: Stopped(13, IllegalMove",
    );
    stop(variations, 1, "第104局", "line 3: Stopped(50, IllegalMove");
    stop(
        variations,
        2,
        "WildHouse",
        "line 41: Stopped(74, IllegalMove",
    );
}

/// cchess's own reader tests (tests/test_read_xqf.py at the commit of MANIFEST.tsv) on its
/// fixtures: the lines of game_varations.xqf (its `move_text2`, Chinese notation turned into
/// ICCS by hand), 5 lines in test_5_variations.xqf, 139 in WildHouse.xqf, 1 in game_test.xqf (58 plies here).
#[test]
fn cchess_fixtures_give_the_lines_of_cchess_tests() {
    let Some(dir) = corpus_support::corpus_dir("xiangqi-xqf") else {
        return;
    };
    let read = |name: &str| {
        let path = dir.join("walker8088-cchess-tests/tests/data").join(name);
        read_xqf(&std::fs::read(path).unwrap(), 0)
    };
    let text = |m: &[MoveRecord]| m.iter().map(|m| m.text()).collect::<Vec<_>>().join(" ");
    let rec = read("game_varations.xqf");
    assert_eq!(text(&rec.moves), "h2e2 h7e7 h0g2 h9g7 i0h0 i9i8 b0c2 b9c7");
    let got: Vec<(usize, u32, String)> = rec
        .variations
        .iter()
        .map(|v| (v.parent, v.start, text(&v.moves)))
        .collect();
    let want = [
        (0, 6, "g3g4 c6c5"),
        (1, 6, "c3c4 i8d8"),
        (2, 6, "b0a2 b9c7"),
        (0, 1, "h9g7 h0g2 g6g5 i0h0 i9h9 c3c4 b9c7"),
        (4, 5, "b7e7 h0h6 b9c7"),
    ];
    assert_eq!(got, want.map(|(p, s, t)| (p, s, t.to_string())));
    assert_eq!(read("test_5_variations.xqf").variations.len() + 1, 5);
    assert_eq!(read("WildHouse.xqf").variations.len() + 1, 139);
    let game_test = read("game_test.xqf");
    assert_eq!((game_test.variations.len(), game_test.moves.len()), (0, 58));
}
