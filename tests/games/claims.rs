//! `arbiter claim` (issue 26, docs/claims.md): every claim kind of every ruleset on the
//! hand-worked fixtures, each answer worked out from the fixture's header and the rulings
//! (the comment on each row says how), pinned by value and by human and JSON snapshots; and
//! the command line: the claim and the file in either order, claims that do not apply, the
//! JSON error object of exit 2.

use arbiter::claim::{self, Claim, Judged, Standing};
use arbiter::pipeline::{check_record, parse_source, Options, Source};
use arbiter::rules::{Overrides, TwoSquares};
use std::path::Path;

/// One claim to judge: fixture, game index, ply, claim, overrides, the answer and evidence
/// plies expected.
struct Case {
    file: &'static str,
    game: usize,
    ply: u32,
    claim: Claim,
    two_squares: Option<u32>,
    want: Standing,
    evidence: &'static [u32],
}

const fn case(
    file: &'static str,
    ply: u32,
    claim: Claim,
    want: Standing,
    evidence: &'static [u32],
) -> Case {
    Case {
        file,
        game: 0,
        ply,
        claim,
        two_squares: None,
        want,
        evidence,
    }
}

use Claim::*;
use Standing::{Discretionary as Admin, DoesNotApply as NoApply, DoesNotHold as No, Holds as Yes};

const STRATEGO: &[Case] = &[
    // Header: ply 7 h2-h1 is the 4th move of the Marshal's run (plies 1, 3, 5, 7); limit 3.
    case(
        "history/two-squares-fourth-move.arb",
        7,
        TwoSquares,
        Yes,
        &[1, 3, 5, 7],
    ),
    // Ply 8 e7-e6 starts Blue's own run; ply 7, just before, broke the rule.
    case(
        "history/two-squares-fourth-move.arb",
        8,
        TwoSquares,
        No,
        &[8],
    ),
    // Ply 5 h1-h2 is move 3 of the run since ply 1: allowed (the limit is 3).
    case(
        "history/two-squares-fourth-move.arb",
        5,
        TwoSquares,
        No,
        &[1],
    ),
    // No piece of the shuttle stands next to an enemy piece: no chase runs.
    case("history/two-squares-fourth-move.arb", 7, Chase, No, &[]),
    // Header: ply 13 repeats the position of ply 5 inside the chase that began on ply 5.
    case(
        "history/chase-repeats-position.arb",
        13,
        Chase,
        Yes,
        &[5, 6, 7, 8, 9, 10, 11, 12, 13],
    ),
    // Header: ply 11 g7-f7 repeats ply 7's position, but goes straight back to f7 (left on
    // ply 9): the exception; the chase runs since ply 5.
    case(
        "history/chase-return-exception.arb",
        11,
        Chase,
        No,
        &[5, 6, 7, 8, 9, 10],
    ),
    // Header: ply 13 goes straight back, as the exception allows, but the two-squares rule
    // forbids it, so the exception does not hold: it repeats ply 5's position (rulings §1.5).
    case(
        "history/chase-return-forbidden-by-two-squares.arb",
        13,
        Chase,
        Yes,
        &[5, 9, 10, 11, 12, 13],
    ),
    // Stratego has no repetition claim: does not apply (its chase rule is the close one).
    case(
        "history/chase-return-exception.arb",
        11,
        Repetition,
        NoApply,
        &[],
    ),
    case(
        "history/chase-return-exception.arb",
        11,
        PerpetualChase,
        NoApply,
        &[],
    ),
    // §1.6: 160 plies without an attack: the draw holds on request (evidence: ply 160).
    case("history/veldslag-no-capture-80.arb", 160, Draw, Yes, &[160]),
    case(
        "history/veldslag-no-capture-80.arb",
        160,
        NoCapture,
        Yes,
        &[160],
    ),
    // 159 and 100 plies: between 50 and 80 moves per side, the admin's discretion.
    case(
        "history/veldslag-no-capture-80.arb",
        159,
        Draw,
        Admin,
        &[100],
    ),
    case(
        "history/veldslag-no-capture-80.arb",
        100,
        NoCapture,
        Admin,
        &[100],
    ),
    // 99 plies: below the admin's threshold.
    case("history/veldslag-no-capture-80.arb", 99, Draw, No, &[]),
    // Header: a NoCapture tag carries 158 quiet plies in; 160 are reached on ply 2.
    case("history/veldslag-no-capture-tag.arb", 0, Draw, Admin, &[]),
    case(
        "history/veldslag-no-capture-tag.arb",
        1,
        NoCapture,
        Admin,
        &[],
    ),
    case("history/veldslag-no-capture-tag.arb", 2, Draw, Yes, &[2]),
    case(
        "history/veldslag-no-capture-tag.arb",
        3,
        NoCapture,
        Yes,
        &[2],
    ),
    // A classic game has no no-capture claim.
    case("stratego/clean-stratego.arb", 10, NoCapture, NoApply, &[]),
    // Header: after ply 14 neither side can move: a draw.
    case("stratego/end-neither-can-move.arb", 14, Draw, Yes, &[14]),
    // Ply 33 captures the Flag: the game ends 1-0, no draw.
    case("stratego/clean-stratego.arb", 33, Draw, No, &[33]),
    // Both sides can move after ply 10 of a classic game: no draw rule applies.
    case("stratego/clean-stratego.arb", 10, Draw, No, &[]),
    // Header: the record says 1-0, the moves end the game 0-1 on ply 6.
    case(
        "stratego/result-contradicts-board.arb",
        6,
        Result,
        Yes,
        &[6],
    ),
    case("stratego/clean-stratego.arb", 33, Result, No, &[33]),
];

const SPIONAGE: &[Case] = &[
    // Header (game 1): ply 5 a4-a3 takes the Corporal back to a3, left on ply 1.
    case("spionage/no-return.arb", 5, NoReturn, Yes, &[1, 5]),
    // Ply 4 b8-b7 goes forward: no return.
    case("spionage/no-return.arb", 4, NoReturn, No, &[]),
    // Spionage has no draw on the board (rulings §2), nor a two-squares rule.
    case("spionage/no-return.arb", 4, Draw, NoApply, &[]),
    case("spionage/no-return.arb", 4, TwoSquares, NoApply, &[]),
];

const JUNGLE: &[Case] = &[
    // Header: the position after ply 10 stood after plies 2, 6 and 10.
    case(
        "jungle/threefold_claim.arb",
        10,
        Repetition,
        Yes,
        &[2, 6, 10],
    ),
    case("jungle/threefold_claim.arb", 9, Draw, No, &[5, 9]),
    case("jungle/threefold_claim.arb", 6, Repetition, No, &[2, 6]),
    case("jungle/threefold_claim.arb", 1, Repetition, No, &[1]),
    // Header: the start position stands again after plies 4 and 8 (the start counts).
    case(
        "jungle/repetition_forbidden.arb",
        8,
        Repetition,
        Yes,
        &[0, 4, 8],
    ),
    // Header: ply 9 makes the position of plies 1 and 5 a third time while the Lion could
    // capture the Tiger that just moved: forbidden.
    case(
        "jungle/repetition_forbidden.arb",
        9,
        JungleRepetition,
        Yes,
        &[1, 5, 9],
    ),
    // Header: ply 8 is a third occurrence, but the Cat could not capture the Tiger: allowed.
    case(
        "jungle/repetition_allowed.arb",
        8,
        JungleRepetition,
        No,
        &[0, 4, 8],
    ),
    // Jungle has no two-squares rule: its repetition rule is the close claim.
    case("jungle/repetition_allowed.arb", 8, TwoSquares, NoApply, &[]),
];

const XIANGQI: &[Case] = &[
    // Header: the start position stands for the third time after ply 8 (0, 4, 8); every Red
    // move of the window (plies 1, 3, 5, 7) checks: Red loses by perpetual check. Evidence:
    // the occurrences and Red's checks.
    case(
        "xiangqi/repetition-perpetual-check.arb",
        8,
        PerpetualCheck,
        Yes,
        &[0, 1, 3, 4, 5, 7, 8],
    ),
    case(
        "xiangqi/repetition-perpetual-check.arb",
        8,
        PerpetualChase,
        No,
        &[0, 1, 3, 4, 5, 7, 8],
    ),
    case(
        "xiangqi/repetition-perpetual-check.arb",
        8,
        Repetition,
        Yes,
        &[0, 1, 3, 4, 5, 7, 8],
    ),
    // The game ends 0-1 there: no draw.
    case("xiangqi/repetition-perpetual-check.arb", 8, Draw, No, &[8]),
    // Ply 7: the position after it stood after ply 3 only.
    case(
        "xiangqi/repetition-perpetual-check.arb",
        7,
        Repetition,
        No,
        &[3, 7],
    ),
    // Claim mode header: ply 10 makes the position after ply 2 stand a third time (2, 6, 10),
    // inside the repetition reported at ply 8, whose verdict is Red's perpetual check (its
    // checks on plies 1, 3, 5, 7).
    case(
        "xiangqi/repetition-claim-mode.arb",
        10,
        PerpetualCheck,
        Yes,
        &[1, 2, 3, 5, 6, 7, 10],
    ),
    // Header: no side checks or chases throughout: a draw by repetition at ply 8.
    case("xiangqi/repetition-neither.arb", 8, Draw, Yes, &[8]),
    // Header: Black chases the Cannon with every move of the window (2, 4, 6, 8): Black loses.
    case(
        "xiangqi/repetition-check-idle-vs-chase.arb",
        8,
        PerpetualChase,
        Yes,
        &[0, 2, 4, 6, 8],
    ),
    // Header: the 2-move limit (4 plies) is reached on ply 4.
    case("xiangqi/move-limit.arb", 3, MoveLimit, No, &[]),
    case("xiangqi/move-limit.arb", 4, MoveLimit, Yes, &[]),
    // Header: the mate on the limit's ply takes precedence (§4.2): the limit claim fails.
    case("xiangqi/move-limit-mate-first.arb", 4, MoveLimit, No, &[4]),
    case("xiangqi/move-limit-mate-first.arb", 3, MoveLimit, No, &[]),
    // Plain xiangqi has no move limit without NoCaptureLimit; no chase rule of its own.
    case("xiangqi/checkmate.arb", 1, MoveLimit, NoApply, &[]),
    case("xiangqi/checkmate.arb", 1, Chase, NoApply, &[]),
];

const JIEQI: &[Case] = &[
    // Header: position Q (after ply 1) stands after plies 1, 5 and 9; Red checks with every
    // move of the window (plies 3, 5, 7, 9).
    case(
        "jieqi/perpetual-check-revealed.arb",
        9,
        PerpetualCheck,
        Yes,
        &[1, 3, 5, 7, 9],
    ),
    case(
        "jieqi/perpetual-check-revealed.arb",
        5,
        Repetition,
        No,
        &[1, 5],
    ),
    // Header: P (after ply 2) stands after plies 2, 6 and 10; Black chases the Cannon on
    // plies 4, 6, 8 and 10.
    case(
        "jieqi/perpetual-chase-revealed.arb",
        10,
        PerpetualChase,
        Yes,
        &[2, 4, 6, 8, 10],
    ),
    case(
        "jieqi/perpetual-chase-revealed.arb",
        10,
        PerpetualCheck,
        No,
        &[2, 4, 6, 8, 10],
    ),
    // Header: the FEN starts 114 plies without a capture; the 60-move limit (120 plies) is
    // reached on ply 6.
    case("jieqi/move-limit.arb", 6, MoveLimit, Yes, &[]),
    // Header: mate on ply 1, the 120th quiet ply: the limit claim fails.
    case("jieqi/move-limit-mate.arb", 1, MoveLimit, No, &[1]),
];

/// The reply to `c`.
fn reply(c: &Case) -> claim::Reply {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures")
        .join(c.file);
    let src = Source::read(&path);
    let rec = parse_source(&src).swap_remove(c.game);
    let overrides = Overrides {
        two_squares: c.two_squares.map(TwoSquares::from_count),
        ..Overrides::default()
    };
    let mut g = check_record(
        &format!("fixtures/{}", c.file),
        &rec,
        &Options { overrides },
    );
    g.source = format!("fixtures/{}", c.file);
    claim::judge(
        Judged {
            record: &rec,
            report: &g,
        },
        c.claim,
        c.ply,
    )
    .unwrap_or_else(|e| panic!("{} ply {}: {}", c.file, c.ply, e.0))
}

/// Checks every case's answer and evidence; returns the human answers, then the JSON of the
/// first case, for the snapshot.
fn judged(cases: &[Case]) -> String {
    let mut out = String::new();
    for c in cases {
        let r = reply(c);
        let what = format!("{} ply {} {}", c.file, c.ply, c.claim.as_str());
        assert_eq!(r.answer, c.want.as_str(), "{what}: {}", r.reason);
        assert_eq!(r.evidence_plies, c.evidence, "{what}: {}", r.reason);
        assert_eq!(r.applies, c.want != NoApply, "{what}");
        out.push_str(&r.render(claim::ClaimFormat::Human));
    }
    out.push_str(&reply(&cases[0]).render(claim::ClaimFormat::Json));
    out
}

#[test]
fn stratego_family_claims() {
    insta::assert_snapshot!("claims_stratego", judged(STRATEGO));
}

#[test]
fn spionage_claims() {
    insta::assert_snapshot!("claims_spionage", judged(SPIONAGE));
}

#[test]
fn jungle_claims() {
    insta::assert_snapshot!("claims_jungle", judged(JUNGLE));
}

#[test]
fn xiangqi_claims() {
    insta::assert_snapshot!("claims_xiangqi", judged(XIANGQI));
}

#[test]
fn jieqi_claims() {
    insta::assert_snapshot!("claims_jieqi", judged(JIEQI));
}

#[test]
fn a_rule_turned_off_does_not_apply() {
    let mut c = case(
        "history/two-squares-fourth-move.arb",
        7,
        TwoSquares,
        NoApply,
        &[],
    );
    c.two_squares = Some(0);
    assert!(reply(&c).reason.contains("off in this game"));
    judged(&[c]);
}

#[test]
fn the_second_spionage_game_names_turn_and_move() {
    let c = Case {
        game: 1,
        ..case("spionage/no-return.arb", 8, NoReturn, Yes, &[4, 8])
    };
    let r = reply(&c);
    assert_eq!(
        r.at.as_ref().unwrap().written,
        "turn 4, 2... Black, move 2: b7-b8"
    );
    judged(&[c]);
}

/// `arbiter claim ARGS`: exit code, stdout, stderr.
fn run(args: &[&str]) -> (i32, String, String) {
    crate::bin::run(&[&["claim"], args].concat()).parts()
}

/// A claim after the ply that ended the game says where it ended and whether the record goes
/// on past it (the words once read "the record goes on, but; there is no position").
#[test]
fn a_claim_after_the_end_says_where_the_game_ended() {
    let f = "fixtures/jungle/den_entered.arb";
    let (code, _, err) = run(&[f, "--game-index", "1", "--ply", "9", "draw"]);
    assert_eq!(code, 2);
    assert_eq!(err, "arbiter: cannot judge the claim: the game ended on ply 1 (den-entered; the record goes on, but the game does not): there is no position after ply 9 to claim in\n");
    let (_, _, err) = run(&[f, "--ply", "9", "draw"]);
    assert!(
        err.contains("(den-entered; its last ply): there is no position after ply 9"),
        "{err}"
    );
}

#[test]
fn claim_and_file_in_either_order_and_the_exit_codes() {
    let f = "fixtures/history/two-squares-fourth-move.arb";
    let a = run(&[f, "--ply", "7", "two-squares"]);
    let b = run(&["two-squares", f, "--ply", "7"]);
    assert_eq!((a.0, &a.1), (0, &b.1), "{}", a.2);
    assert_eq!(run(&[f, "--ply", "8", "two-squares"]).0, 1);
    // Does not apply: exit 2, the close claim named.
    let (code, out, _) = run(&["repetition", f, "--ply", "7"]);
    assert_eq!(code, 2);
    assert!(
        out.contains("does not apply to barrage") && out.contains("chase"),
        "{out}"
    );
    // Discretionary: exit 1, said so.
    let (code, out, _) = run(&[
        "fixtures/history/veldslag-no-capture-80.arb",
        "--ply",
        "130",
        "draw",
    ]);
    assert_eq!(code, 1);
    assert!(out.contains("at the admin's discretion"), "{out}");
}

#[test]
fn usage_and_unjudgeable_questions_exit_2_with_a_json_error() {
    let f = "fixtures/history/two-squares-fourth-move.arb";
    let (code, out, err) = run(&[f, "nonsense", "--ply", "3"]);
    assert_eq!((code, out.as_str()), (2, ""));
    assert!(err.contains("unknown claim `nonsense`"), "{err}");
    let (code, out, err) = run(&[f, "two-squares"]);
    assert_eq!(code, 2);
    assert!(
        out.is_empty() && err.contains("--ply N is required"),
        "{err}"
    );
    let (code, out, _) = run(&[f, "two-squares", "--ply", "99", "--format", "json"]);
    assert_eq!(code, 2);
    let v: serde_json::Value = serde_json::from_str(&out).expect("a JSON error object");
    assert_eq!(v["error"], "the game has 8 plies; there is no ply 99");
    assert_eq!(
        (v["claim"].as_str(), v["game_index"].as_u64()),
        (Some("two-squares"), Some(0))
    );
    let (code, out, _) = run(&[f, "draw", "--ply", "1", "--moves", "--format", "json"]);
    assert_eq!(code, 2);
    assert!(out.contains("\"error\""), "{out}");
    let (code, out, _) = run(&["nonsense.arb", "draw", "--ply", "1", "--format", "json"]);
    assert_eq!(code, 2);
    assert!(out.contains("\"error\""), "{out}");
}
