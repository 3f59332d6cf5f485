//! The Stratego-family rules (rulings §1.1 classic/Barrage/Duel, §1.2 Veldslag, §1.3 result
//! checks) on the hand-written logs in `fixtures/stratego/`.
//!
//! Each fixture works out its verdict by hand in its header comment; [`expected`] repeats that
//! verdict as data (findings as code, ply and a piece of the message; the outcome as result,
//! reason and last ply; the plies replayed), and the library's judgement must match it exactly.
//! Combat fixtures are also replayed move by move with the engine, to check who stands where
//! after each combat. insta snapshots pin the human report of every fixture with a finding,
//! and the JSON document of a representative set.

use crate::fixtures::verdict_differences;
use arbiter::games::stratego::{Kind, State, Stratego};
use arbiter::pipeline::{self, check_source, GameReport, Options, Source};
use arbiter::report::{human, json};
use arbiter::rules::{Overrides, Rules, Side};
use arbiter::Summary;
use std::path::{Path, PathBuf};

const DIR: &str = "fixtures/stratego";

/// A finding as the verdict states it: code, ply, and a piece of its message.
type Expect = (&'static str, Option<u32>, &'static str);

/// One game's hand-worked verdict.
struct Verdict {
    /// Plies applied by the replay (an illegal ply and anything after it are not counted).
    plies: usize,
    /// `(result, reason, last ply)` of the on-board end, or `None` while unfinished.
    outcome: Option<(&'static str, &'static str, u32)>,
    /// The findings in report order.
    findings: Vec<Expect>,
}

impl Verdict {
    /// `plies` legal plies, no end on the board, no finding.
    fn clean(plies: usize) -> Verdict {
        Verdict {
            plies,
            outcome: None,
            findings: Vec::new(),
        }
    }
    /// `plies` legal plies and the game ended on the board after the last of them.
    fn ended(plies: usize, result: &'static str, reason: &'static str) -> Verdict {
        Verdict {
            plies,
            outcome: Some((result, reason, plies as u32)),
            findings: Vec::new(),
        }
    }
    /// `plies` legal plies and the game ended on the board as `outcome` (result, reason, last
    /// ply): a log taken up after a ply (`FromPly`) numbers its plies from there.
    fn at(plies: usize, outcome: (&'static str, &'static str, u32)) -> Verdict {
        Verdict {
            plies,
            outcome: Some(outcome),
            findings: Vec::new(),
        }
    }
    /// Ply `ply` is illegal: the plies before it are applied, the replay stops there.
    fn illegal(ply: u32, message: &'static str) -> Verdict {
        Verdict::clean(ply as usize - 1).with(&[("illegal-move", Some(ply), message)])
    }
    /// The setup cannot be played: nothing is replayed.
    fn setup(messages: &[&'static str]) -> Verdict {
        let findings: Vec<Expect> = messages
            .iter()
            .map(|m| ("setup-invalid", None, *m))
            .collect();
        Verdict::clean(0).with(&findings)
    }
    /// Adds findings.
    fn with(mut self, findings: &[Expect]) -> Verdict {
        self.findings.extend_from_slice(findings);
        self
    }
}

/// Every fixture and the verdict its header works out, game by game.
fn expected() -> Vec<(&'static str, Vec<Verdict>)> {
    use Verdict as V;
    let illegal = |ply, message| vec![V::illegal(ply, message)];
    let clean = |plies| vec![V::clean(plies)];
    let ended = |plies, result, reason| vec![V::ended(plies, result, reason)];
    let setup = |messages: &[&'static str]| vec![V::setup(messages)];
    vec![
        // ---- unsupported variants (rulings §1.1) ------------------------------------------
        (
            "unsupported-classicfree.arb",
            vec![V::clean(0).with(&[(
                "unsupported-game",
                None,
                "`classicfree` games are not supported",
            )])],
        ),
        // ---- illegal moves (rulings §1.1) -------------------------------------------------
        (
            "illegal-from-square-empty.arb",
            illegal(3, "no piece on b5"),
        ),
        (
            "illegal-opponent-piece.arb",
            illegal(3, "j6 holds a Blue piece but it is Red's move"),
        ),
        (
            "illegal-bomb-moves.arb",
            illegal(2, "the Bomb on b7 cannot move"),
        ),
        (
            "illegal-flag-moves.arb",
            illegal(2, "the Flag on a7 cannot move"),
        ),
        (
            "illegal-diagonal.arb",
            illegal(3, "a5-b6 is not a straight line"),
        ),
        (
            "illegal-non-scout-two-squares.arb",
            illegal(2, "a Marshal moves one square, not 2"),
        ),
        (
            "illegal-scout-over-lake.arb",
            illegal(3, "the Scout cannot cross the lake at c5"),
        ),
        (
            "illegal-scout-over-piece.arb",
            illegal(3, "the Scout cannot pass the blue piece on a6"),
        ),
        ("illegal-onto-lake.arb", illegal(2, "h6 is a lake")),
        (
            "illegal-onto-own-piece.arb",
            illegal(2, "e7 holds Blue's own piece"),
        ),
        (
            "illegal-attack-mark-on-empty-square.arb",
            illegal(3, "marked as an attack but e5 is empty"),
        ),
        (
            "illegal-off-board.arb",
            illegal(2, "to-square is off the board"),
        ),
        (
            "illegal-same-square.arb",
            illegal(1, "a move must change square"),
        ),
        (
            "illegal-combat-annotation-contradicts-setup.arb",
            illegal(3, "recorded combat X:9 but the setup gives X:S"),
        ),
        (
            "illegal-combat-annotation-without-combat.arb",
            illegal(1, "combat 2:5 recorded on a move to an empty square"),
        ),
        // ---- combat (rulings §1.1): who stands where is checked move by move below --------
        ("combat-higher-wins.arb", clean(5)),
        ("combat-equal-both-removed.arb", clean(3)),
        ("combat-miner-defuses-bomb.arb", clean(7)),
        ("combat-bomb-kills-attacker.arb", clean(11)),
        ("combat-spy-attacks-marshal.arb", clean(5)),
        ("combat-marshal-attacks-spy.arb", clean(5)),
        ("combat-spy-attacks-general-loses.arb", clean(5)),
        (
            "combat-anything-takes-flag.arb",
            ended(7, "1-0", "flag-captured"),
        ),
        ("combat-scout-long-range-attack.arb", clean(3)),
        // ---- the end of the game (rulings §1.1) -------------------------------------------
        ("end-flag-captured.arb", ended(6, "0-1", "flag-captured")),
        (
            "end-no-movable-pieces.arb",
            ended(12, "0-1", "no-legal-move"),
        ),
        (
            "end-last-piece-lost-on-own-move.arb",
            ended(14, "0-1", "no-legal-move"),
        ),
        (
            "end-boxed-in-by-own-bombs-and-lake.arb",
            ended(14, "0-1", "no-legal-move"),
        ),
        (
            "end-boxed-in-at-start.arb",
            ended(0, "0-1", "no-legal-move"),
        ),
        (
            "end-neither-can-move.arb",
            ended(14, "1/2-1/2", "neither-can-move"),
        ),
        (
            "end-neither-can-move-at-start.arb",
            ended(0, "1/2-1/2", "neither-can-move"),
        ),
        // ---- results, terminations, moves after the end (rulings §1.3) --------------------
        (
            "result-contradicts-board.arb",
            vec![V::ended(6, "0-1", "flag-captured").with(&[(
                "result-mismatch",
                Some(6),
                "the record says 1-0 but the moves end the game 0-1 (flag-captured, ply 6)",
            )])],
        ),
        (
            "result-decisive-unfinished-no-termination.arb",
            vec![V::clean(13).with(&[(
                "result-mismatch",
                None,
                "the record says 0-1 but the moves do not end the game, and no Termination tag",
            )])],
        ),
        (
            "result-unknown-on-finished-game.arb",
            ended(7, "1-0", "flag-captured"),
        ),
        (
            "result-token-contradicts-tag.arb",
            vec![V::clean(6).with(&[(
                "result-mismatch",
                None,
                "the result token 0-1 contradicts the Result tag 1-0",
            )])],
        ),
        (
            "no-result.arb",
            vec![V::clean(6).with(&[("no-result", None, "the log records no result")])],
        ),
        ("termination-resignation.arb", clean(6)),
        ("termination-agreement.arb", clean(6)),
        ("termination-time.arb", clean(6)),
        (
            "termination-agreement-decisive.arb",
            vec![V::clean(6).with(&[(
                "result-mismatch",
                None,
                "an agreed end must be a draw, not 1-0",
            )])],
        ),
        (
            "termination-resignation-draw.arb",
            vec![V::clean(6).with(&[(
                "result-mismatch",
                None,
                "a resignation cannot end in a draw",
            )])],
        ),
        (
            "termination-off-board-after-board-end.arb",
            vec![V::ended(6, "0-1", "flag-captured").with(&[(
                "result-mismatch",
                Some(6),
                "termination `resignation` but the game ended on the board (flag-captured, ply 6)",
            )])],
        ),
        (
            "termination-wrong-board-end.arb",
            vec![V::ended(6, "0-1", "flag-captured").with(&[(
                "result-mismatch",
                Some(6),
                "termination `no-legal-move` but the moves end the game by flag-captured",
            )])],
        ),
        (
            "termination-board-end-on-unfinished-game.arb",
            vec![V::clean(6).with(&[(
                "result-mismatch",
                None,
                "termination `flag-captured` but the moves do not end the game",
            )])],
        ),
        (
            "termination-unknown-word.arb",
            vec![V::clean(6).with(&[(
                "record-defect",
                None,
                "unknown termination `resigned`: it says nothing arbiter can check",
            )])],
        ),
        (
            "moves-after-end.arb",
            vec![V::ended(6, "0-1", "flag-captured").with(&[(
                "moves-after-end",
                Some(7),
                "2 moves after the game ended on ply 6",
            )])],
        ),
        (
            "moves-after-end-at-start.arb",
            vec![V::ended(0, "0-1", "no-legal-move").with(&[(
                "moves-after-end",
                Some(1),
                "2 moves after the game ended on ply 0",
            )])],
        ),
        // ---- setups (rulings §1.1, §1.2) --------------------------------------------------
        (
            "setup-wrong-counts.arb",
            setup(&[concat!(
                "Red's setup has the wrong pieces: ",
                "4 Miner (should be 5), 2 Marshal (should be 1)"
            )]),
        ),
        (
            "setup-wrong-zone-rank.arb",
            setup(&[
                "Blue's setup has no row for rank 7",
                "rank 6 is outside Blue's setup zone",
            ]),
        ),
        (
            "setup-wrong-row-width.arb",
            setup(&["rank 2 has 9 squares, the board has 10"]),
        ),
        (
            "setup-unknown-letter.arb",
            setup(&["unknown piece letter `Z`"]),
        ),
        ("setup-missing.arb", setup(&["no setup for Blue"])),
        (
            "setup-every-problem-at-once.arb",
            setup(&[
                // The whole message: the surplus only, the shortages being explained.
                "Red's setup has the wrong pieces: 2 Marshal (should be 1)",
                "Red's setup has no row for rank 3",
                "rank 5 is outside Red's setup zone",
                "unknown piece letter `Z`",
                "empty square e8 in Blue's setup",
            ]),
        ),
        (
            "setup-barrage-wrong-counts.arb",
            setup(&[
                "Red's setup has the wrong pieces: 2 Flag (should be 1), 0 Bomb (should be 1)",
            ]),
        ),
        (
            "setup-barrage-piece-not-in-set.arb",
            setup(&["barrage has no Colonel"]),
        ),
        ("setup-barrage-sparse-valid.arb", clean(0)),
        ("setup-duel-sparse-valid.arb", clean(2)),
        // ---- Veldslag (rulings §1.2) ------------------------------------------------------
        (
            "veldslag-lakes.arb",
            illegal(5, "the Scout cannot cross the lake at c4"),
        ),
        (
            "veldslag-off-board.arb",
            illegal(1, "to-square is off the board"),
        ),
        ("veldslag-spy-takes-general.arb", clean(5)),
        ("veldslag-general-attacks-spy.arb", clean(5)),
        ("veldslag-spy-attacks-colonel-loses.arb", clean(5)),
        ("veldslag-first-move-blue.arb", clean(5)),
        (
            "veldslag-first-move-red-by-default.arb",
            illegal(1, "e6 holds a Blue piece but it is Red's move"),
        ),
        (
            "veldslag-first-move-bad-value.arb",
            vec![V::clean(0).with(&[(
                "parse-error",
                None,
                "the FirstMove tag takes red or blue, not `green`",
            )])],
        ),
        (
            "veldslag-no-marshal.arb",
            setup(&["veldslag has no Marshal"]),
        ),
        (
            "veldslag-setup-zone.arb",
            setup(&[
                "Red's setup has no row for rank 1",
                "rank 4 is outside Red's setup zone",
            ]),
        ),
        // ---- whole games and files ---------------------------------------------------------
        ("clean-stratego.arb", ended(33, "1-0", "flag-captured")),
        ("clean-barrage.arb", ended(31, "1-0", "flag-captured")),
        ("clean-duel.arb", ended(26, "0-1", "flag-captured")),
        ("clean-veldslag.arb", ended(27, "1-0", "flag-captured")),
        (
            "multi-game.arb",
            vec![
                V::ended(7, "1-0", "flag-captured"),
                V::illegal(5, "the Scout cannot cross the lake at c4"),
                V::setup(&["Red's setup has the wrong pieces: 3 Scout (should be 2), 1 Miner"]),
                V::ended(14, "1/2-1/2", "neither-can-move"),
            ],
        ),
        // ---- positions (docs/log-format.md, positions) -------------------------------------
        (
            "position-boxed-in-miner.arb",
            vec![
                V::at(6, ("0-1", "no-legal-move", 126)),
                V::ended(6, "0-1", "no-legal-move"),
                V::clean(8).with(&[(
                    "two-squares-rule",
                    Some(7),
                    "the Miner on a2 moves between the same two squares for the 4th time",
                )]),
                V::ended(6, "0-1", "no-legal-move").with(&[(
                    "no-capture-50",
                    Some(5),
                    "50 moves per side (100 plies) without an attack",
                )]),
            ],
        ),
        (
            "position-last-piece-suicide.arb",
            vec![
                V::ended(2, "0-1", "no-legal-move"),
                V::ended(2, "0-1", "no-legal-move"),
                V::ended(2, "0-1", "no-legal-move"),
                V::ended(2, "0-1", "no-legal-move"),
                V::clean(1),
            ],
        ),
        (
            "position-neither-can-move.arb",
            vec![
                V::ended(1, "1/2-1/2", "neither-can-move"),
                V::at(0, ("1/2-1/2", "neither-can-move", 57)),
                V::ended(1, "1/2-1/2", "neither-can-move"),
                V::ended(1, "1/2-1/2", "neither-can-move"),
            ],
        ),
        (
            "position-chase-round-a-lake.arb",
            vec![
                V::clean(25).with(&[(
                    "more-squares-rule",
                    Some(25),
                    "Red chases the Blue Lieutenant on b7 into a position that already occurred on ply 1",
                )]),
                V::clean(25).with(&[(
                    "more-squares-rule",
                    Some(25),
                    "Red chases the Blue Miner on b7 into a position that already occurred on ply 1",
                )]),
                V::clean(25).with(&[(
                    "more-squares-rule",
                    Some(325),
                    "Red chases the Blue Miner on b7 into a position that already occurred on ply 301",
                )]),
                V::clean(21).with(&[(
                    "more-squares-rule",
                    Some(21),
                    "Red chases the Blue Major on b5 into a position that already occurred on ply 1",
                )]),
            ],
        ),
        (
            "position-invalid.arb",
            vec![
                V::setup(&[
                    "`green` is not a side to move",
                    "no piece on j5 to reveal",
                    "`k1` is not a square",
                    "Red's pieces do not fit the army: 2 Marshal (at most 1)",
                    "Red's Bomb on e7 is outside its setup zone",
                    "rank 6 has 9 squares, the board has 10",
                    "piece on the lake c5",
                    "Blue's pieces do not fit the army: no Flag",
                    "rank 11 is not on the board",
                    "a4 holds a Red piece already",
                ]),
                V::setup(&[
                    "FirstMove says Blue but the Position gives Red to move",
                    "`many` is not a number of plies",
                    "Red's Flag on b4 is outside its setup zone",
                ]),
                V::clean(0).with(&[("record-defect", None, "duel has no no-capture count")]),
            ],
        ),
    ]
}

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(DIR).join(name)
}

/// The fixture read with the name reports use (`fixtures/stratego/NAME`, machine-independent).
fn source(name: &str) -> Source {
    let mut src = Source::read(&fixture(name));
    assert!(src.unreadable.is_none(), "{name}: {:?}", src.unreadable);
    src.name = format!("{DIR}/{name}");
    src
}

fn judge(name: &str) -> (Source, Vec<GameReport>) {
    let src = source(name);
    let games = check_source(&src, &Options::default());
    (src, games)
}

/// What the library says about one game, in the shape of a [`Verdict`], for comparison.
fn describe(g: &GameReport) -> String {
    let outcome = g
        .outcome
        .as_ref()
        .map(|o| format!("{} {} @{}", o.result.as_str(), o.reason, o.ply));
    let findings: Vec<String> = g
        .findings
        .iter()
        .map(|f| format!("{} @{:?}: {}", f.code, f.ply, f.message))
        .collect();
    format!(
        "plies {}, outcome {:?}, findings {:#?}",
        g.plies, outcome, findings
    )
}

/// The differences between a verdict and a judgement, empty when they agree.
fn compare(name: &str, index: usize, want: &Verdict, got: &GameReport) -> Vec<String> {
    let mut bad = Vec::new();
    let at = format!("{name} game {index}");
    if got.index != index {
        bad.push(format!("{at}: reported as index {}", got.index));
    }
    if got.plies != want.plies {
        bad.push(format!(
            "{at}: {} plies replayed, expected {}",
            got.plies, want.plies
        ));
    }
    // The codes, plies and outcome in the fixture grammar, compared as every fixture's are.
    let expect: Vec<String> = want
        .findings
        .iter()
        .map(|&(c, p, _)| format!("{c}@{}", p.map_or("-".to_string(), |p| p.to_string())))
        .collect();
    let outcome = want
        .outcome
        .map_or("none".to_string(), |(result, reason, ply)| {
            format!("{reason} {result} {ply}")
        });
    let differences = verdict_differences(got, &expect.join(" "), &outcome);
    bad.extend(differences.iter().map(|d| format!("{at}: {d}")));
    if !differences.iter().any(|d| d.starts_with("findings")) {
        for (f, (_, _, text)) in got.findings.iter().zip(&want.findings) {
            if !f.message.contains(text) {
                bad.push(format!("{at}: message `{}` lacks `{text}`", f.message));
            }
        }
    }
    if !bad.is_empty() {
        bad.push(format!("{at}: got {}", describe(got)));
    }
    bad
}

#[test]
fn every_fixture_matches_its_hand_worked_verdict() {
    let mut bad = Vec::new();
    let mut checked = 0;
    for (name, verdicts) in expected() {
        let (_, games) = judge(name);
        if games.len() != verdicts.len() {
            bad.push(format!(
                "{name}: {} games, expected {}",
                games.len(),
                verdicts.len()
            ));
            continue;
        }
        for (i, (want, got)) in verdicts.iter().zip(&games).enumerate() {
            bad.extend(compare(name, i, want, got));
            checked += 1;
        }
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
    assert!(checked >= 70, "only {checked} games checked");
}

#[test]
fn every_fixture_has_a_verdict_and_states_it_in_its_header() {
    let mut on_disk: Vec<String> = std::fs::read_dir(fixture(""))
        .expect("fixtures/stratego is readable")
        .map(|e| {
            e.expect("directory entry")
                .file_name()
                .to_string_lossy()
                .into_owned()
        })
        .filter(|n| n.ends_with(".arb"))
        .collect();
    on_disk.sort();
    let mut in_table: Vec<String> = expected().iter().map(|(n, _)| n.to_string()).collect();
    in_table.sort();
    assert_eq!(
        on_disk, in_table,
        "fixtures on disk and verdicts in the table differ"
    );
    for name in &on_disk {
        let text = std::fs::read_to_string(fixture(name)).expect("fixture is UTF-8");
        // The header's comment lines as one text, so that a phrase may wrap.
        let header: String = text
            .lines()
            .take_while(|l| l.starts_with(';'))
            .map(|l| l.trim_start_matches(';').trim())
            .collect::<Vec<_>>()
            .join(" ");
        assert!(
            header.contains("rulings §") || header.contains("log-format"),
            "{name}: header names no rule"
        );
        assert!(
            header.contains("Verdict by hand"),
            "{name}: header works out no verdict"
        );
    }
}

/// The position after the first `plies` plies of the fixture's first game, replayed with the
/// engine itself (every ply must be legal).
fn position_after(name: &str, plies: usize) -> (Stratego, State) {
    let src = source(name);
    let rec = pipeline::parse_source(&src).remove(0);
    let overrides = Overrides::default();
    let game = pipeline::game_of(&rec, &overrides).expect("a Stratego-family Game tag");
    let (params, _, _) = pipeline::parameters_for(&rec, game, &overrides).expect("parameters");
    let engine = Stratego::new(game).expect("a Stratego-family game");
    let mut st = engine
        .start(&rec, &params, &mut Vec::new())
        .expect("a valid setup");
    for (i, mv) in rec.moves.iter().take(plies).enumerate() {
        if let Err(f) = engine.play(&mut st, mv, i as u32 + 1) {
            panic!("{name}: ply {} rejected: {}", i + 1, f.message);
        }
    }
    (engine, st)
}

/// Who stands on the square `name` (`e6`), and whether combat has revealed it.
fn on(engine: &Stratego, st: &State, name: &str) -> Option<(Side, Kind, bool)> {
    let file = name.as_bytes()[0] - b'a';
    let rank: u32 = name[1..].parse().expect("a rank number");
    let sq = engine
        .geometry()
        .square_written(file, rank)
        .expect("a square of the board");
    st.board[sq as usize].map(|p| (p.side, p.kind, p.revealed))
}

const RED: Side = Side::First;
const BLUE: Side = Side::Second;

#[test]
fn combat_leaves_the_winner_on_the_board_revealed() {
    // After ply N, square S holds: `R9*` a Red General revealed by combat, `B8` a Blue Colonel
    // not yet revealed (native letters, docs/log-format.md), `-` nothing.
    type Checks = &'static [(usize, &'static str, &'static str)];
    let table: &[(&str, Checks)] = &[
        (
            "combat-higher-wins.arb",
            &[
                (2, "i6", "B8"),
                (3, "i6", "R9*"),
                (3, "i5", "-"),
                (5, "i7", "R9*"),
            ],
        ),
        (
            "combat-equal-both-removed.arb",
            &[(1, "j4", "-"), (1, "j7", "-"), (3, "j6", "R2")],
        ),
        (
            "combat-miner-defuses-bomb.arb",
            &[(4, "b7", "BB"), (5, "b7", "R3*"), (5, "b6", "-")],
        ),
        (
            "combat-bomb-kills-attacker.arb",
            &[(5, "b7", "BB*"), (5, "b6", "-"), (11, "b7", "R3*")],
        ),
        (
            "combat-spy-attacks-marshal.arb",
            &[(3, "e6", "RS*"), (3, "e5", "-")],
        ),
        (
            "combat-marshal-attacks-spy.arb",
            &[(4, "e5", "BX*"), (4, "e6", "-")],
        ),
        (
            "combat-spy-attacks-general-loses.arb",
            &[(3, "e6", "B9*"), (3, "e5", "-")],
        ),
        (
            "combat-anything-takes-flag.arb",
            &[(6, "f7", "BF"), (7, "f7", "RS*")],
        ),
        (
            "combat-scout-long-range-attack.arb",
            &[
                (1, "f7", "R2*"),
                (1, "f4", "-"),
                (2, "f7", "BX*"),
                (2, "e7", "-"),
            ],
        ),
        ("veldslag-spy-takes-general.arb", &[(3, "e5", "RS*")]),
        ("veldslag-general-attacks-spy.arb", &[(3, "d5", "R9*")]),
        (
            "veldslag-spy-attacks-colonel-loses.arb",
            &[(3, "g5", "B8*"), (3, "g4", "-")],
        ),
        (
            "veldslag-first-move-blue.arb",
            &[(3, "e4", "B9*"), (5, "e4", "-"), (5, "d4", "-")],
        ),
    ];
    let stand = |code: &str| -> Option<(Side, Kind, bool)> {
        let mut c = code.chars();
        let side = match c.next()? {
            'R' => RED,
            'B' => BLUE,
            _ => return None,
        };
        let kind = Kind::from_letter(c.next().expect("a piece letter")).expect("a known letter");
        Some((side, kind, c.next() == Some('*')))
    };
    for &(name, checks) in table {
        for &(plies, square, code) in checks {
            let (engine, st) = position_after(name, plies);
            assert_eq!(
                on(&engine, &st, square),
                stand(code),
                "{name}: {square} after ply {plies} should be {code}"
            );
        }
    }
}

#[test]
fn combat_records_the_losses_of_both_sides() {
    let kinds = |st: &State, side: Side| -> Vec<Kind> {
        st.lost[side.index()].iter().map(|p| p.kind).collect()
    };
    let (_, st) = position_after("combat-equal-both-removed.arb", 1);
    assert_eq!(kinds(&st, RED), vec![Kind::Scout]);
    assert_eq!(kinds(&st, BLUE), vec![Kind::Scout]);
    let (_, st) = position_after("end-no-movable-pieces.arb", 12);
    assert_eq!(
        kinds(&st, RED),
        vec![
            Kind::Scout,
            Kind::Scout,
            Kind::Marshal,
            Kind::General,
            Kind::Miner,
            Kind::Spy
        ]
    );
    assert_eq!(
        kinds(&st, BLUE),
        vec![Kind::Scout, Kind::Marshal, Kind::General, Kind::Miner]
    );
    let (_, st) = position_after("combat-anything-takes-flag.arb", 7);
    assert_eq!(st.flag_lost, Some(BLUE));
}

#[test]
fn losing_the_last_movable_piece_on_the_own_move_is_not_yet_the_end() {
    // rulings §1.1: "a player to move who has no legal move loses"; after ply 13 Red has no
    // movable piece but Blue is to move.
    let (engine, st) = position_after("end-last-piece-lost-on-own-move.arb", 13);
    assert_eq!(st.to_move, BLUE);
    assert!(!engine.has_legal_move(&st, RED));
    assert_eq!(engine.outcome(&st, 13), None);
    let (engine, st) = position_after("end-last-piece-lost-on-own-move.arb", 14);
    let o = engine
        .outcome(&st, 14)
        .expect("the game is over after ply 14");
    assert_eq!(
        (o.result.as_str(), o.reason.as_str(), o.ply),
        ("0-1", "no-legal-move", 14)
    );
}

#[test]
fn a_boxed_in_side_still_has_a_movable_piece_but_no_legal_move() {
    let (engine, st) = position_after("end-boxed-in-by-own-bombs-and-lake.arb", 14);
    assert_eq!(on(&engine, &st, "d4"), Some((RED, Kind::Miner, false)));
    assert!(engine.legal_moves(&st).is_empty());
    assert!(!engine.has_legal_move(&st, RED));
    assert!(engine.has_legal_move(&st, BLUE));
}

fn human_report(src: &Source, games: &[GameReport]) -> String {
    let style = human::Style {
        color: false,
        width: 100,
    };
    games
        .iter()
        .flat_map(|g| {
            g.findings.iter().map(move |f| {
                human::render(
                    f,
                    &arbiter::report::SourceWindow::whole(&src.name, &src.text),
                    g.index,
                    style,
                )
            })
        })
        .collect()
}

#[test]
fn human_reports_are_pinned() {
    let mut pinned = 0;
    for (name, _) in expected() {
        let (src, games) = judge(name);
        let out = human_report(&src, &games);
        if games.iter().all(|g| g.findings.is_empty()) {
            assert_eq!(out, "", "{name}: a clean game prints nothing");
            continue;
        }
        let stem = name.trim_end_matches(".arb");
        insta::assert_snapshot!(format!("human_{stem}"), out);
        pinned += 1;
    }
    assert!(pinned >= 40, "only {pinned} reports pinned");
}

#[test]
fn json_documents_are_pinned() {
    for name in [
        "clean-stratego.arb",
        "illegal-scout-over-lake.arb",
        "result-contradicts-board.arb",
        "setup-every-problem-at-once.arb",
        "veldslag-first-move-blue.arb",
        "multi-game.arb",
    ] {
        let (src, games) = judge(name);
        let mut summary = Summary {
            files: 1,
            ..Summary::default()
        };
        let values = games
            .iter()
            .map(|g| {
                summary.add(g, arbiter::Severity::Error);
                json::game(
                    g,
                    &arbiter::report::SourceWindow::whole(&src.name, &src.text),
                )
            })
            .collect();
        let mut doc = json::document(values, &summary);
        // The crate version changes with every release; the document's shape does not.
        doc["arbiter"]["version"] = "[version]".into();
        let stem = name.trim_end_matches(".arb");
        insta::assert_json_snapshot!(format!("json_{stem}"), doc);
    }
}

/// A log's `Game` tag naming Gravon's classicfree or ultimate lightning gets the same clear
/// refusal as a Gravon record of that type (rulings §1.1: "say so clearly"), at the tag.
#[test]
fn gravon_variants_named_by_a_game_tag_are_refused_as_such() {
    for name in ["classicfree", "Ultimate Lightning", "ultimate_lightning"] {
        let text = format!("[Game \"{name}\"]\n1. a4-a5 *\n");
        let src = Source::from_bytes("t.arb", text.clone().into_bytes());
        let r = &check_source(&src, &Options::default())[0];
        assert_eq!(r.findings.len(), 1, "{name}");
        let f = &r.findings[0];
        assert_eq!(f.code, arbiter::Code::UnsupportedGame);
        assert_eq!(f.message, format!("`{name}` games are not supported"));
        assert_eq!(&text[f.span.start..f.span.end], name);
        assert_eq!(r.plies, 0);
    }
}
