//! The hand-written Jungle fixtures (`fixtures/jungle/*.arb`): each file's top comment works out
//! the verdict from rulings §3; this test holds arbiter to it (codes, plies, endings), pins the
//! rendered findings with insta (its claims: `tests/games/claims.rs`).

use arbiter::pipeline::{self, GameReport, Options, Source};
use arbiter::report::human::{self, Style};
use arbiter::Code::{self, *};
use std::path::PathBuf;

fn fixture(name: &str) -> Source {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures/jungle")
        .join(name);
    Source::read(&path)
}

/// (outcome as (reason, result, ply), findings as (code, ply; 0 for record-level)) per game.
type Verdict = (Option<(&'static str, &'static str, u32)>, Vec<(Code, u32)>);

fn verdicts(reports: &[GameReport]) -> Vec<Verdict> {
    reports
        .iter()
        .map(|g| {
            (
                g.outcome
                    .as_ref()
                    .map(|o| (o.reason.as_str(), o.result.as_str(), o.ply)),
                g.findings
                    .iter()
                    .map(|f| (f.code, f.ply.unwrap_or(0)))
                    .collect(),
            )
        })
        .collect()
}

fn rendered(src: &Source, reports: &[GameReport]) -> String {
    let style = Style {
        color: false,
        width: 100,
    };
    let mut out = String::new();
    for g in reports {
        out.push_str(&format!(
            "== game {}: {} plies, outcome {}\n",
            g.index + 1,
            g.plies,
            g.outcome.as_ref().map_or("none".to_string(), |o| format!(
                "{} {} after ply {}",
                o.reason,
                o.result.as_str(),
                o.ply
            ))
        ));
        for f in &g.findings {
            out.push_str(&human::render(
                f,
                &arbiter::report::SourceWindow::whole(
                    src.name.replace('\\', "/").rsplit('/').next().unwrap_or(""),
                    &src.text,
                ),
                g.index,
                style,
            ));
        }
    }
    out
}

fn check(name: &str, expected: Vec<Verdict>) {
    let src = fixture(name);
    let reports = pipeline::check_source(&src, &Options::default());
    assert_eq!(verdicts(&reports), expected, "{name}");
    let stem = name.trim_end_matches(".arb");
    insta::assert_snapshot!(format!("jungle_{stem}"), rendered(&src, &reports));
}

const NONE: Verdict = (None, Vec::new());

fn stops(code: Code, ply: u32) -> Verdict {
    (None, vec![(code, ply)])
}

#[test]
fn water() {
    check("rat_enters_water.arb", vec![NONE]);
    check("only_rat_enters_water.arb", vec![stops(IllegalMove, 3)]);
}

#[test]
fn rat_and_elephant() {
    check("elephant_takes_rat.arb", vec![NONE, stops(IllegalMove, 1)]);
    check(
        "rat_in_water_cannot_take_elephant.arb",
        vec![stops(IllegalMove, 1), NONE],
    );
    check(
        "rat_takes_rat_at_the_water.arb",
        vec![NONE, NONE, NONE, stops(IllegalMove, 1)],
    );
}

#[test]
fn river_jumps() {
    check("jump_blocked_by_own_rat.arb", vec![stops(IllegalMove, 1)]);
    check("jump_blocked_by_enemy_rat.arb", vec![stops(IllegalMove, 1)]);
    check("jump_captures.arb", vec![NONE]);
}

#[test]
fn traps_and_strength() {
    check(
        "trap_weak_takes_strong.arb",
        vec![
            NONE,
            stops(IllegalMove, 2),
            stops(IllegalMove, 1),
            (Some(("no-legal-move", "0-1", 1)), vec![]),
        ],
    );
    check("strength.arb", vec![NONE, stops(IllegalMove, 1), NONE]);
}

#[test]
fn dens_and_endings() {
    check("own_den.arb", vec![stops(IllegalMove, 1)]);
    check(
        "den_entered.arb",
        vec![
            (Some(("den-entered", "1-0", 1)), vec![]),
            (Some(("den-entered", "1-0", 1)), vec![(MovesAfterEnd, 2)]),
        ],
    );
    check(
        "no_legal_move.arb",
        vec![
            (Some(("no-legal-move", "1-0", 1)), vec![]),
            (Some(("no-legal-move", "1-0", 1)), vec![]),
        ],
    );
}

#[test]
fn repetition() {
    check(
        "repetition_forbidden.arb",
        vec![(
            None,
            vec![
                (ThreefoldRepetition, 8),
                (JungleRepetition, 9),
                (ThreefoldRepetition, 9),
                (ThreefoldRepetition, 10),
            ],
        )],
    );
    check(
        "repetition_allowed.arb",
        vec![(None, vec![(ThreefoldRepetition, 8)])],
    );
    check(
        "repetition_rat_threatens_elephant.arb",
        vec![(None, vec![(JungleRepetition, 8), (ThreefoldRepetition, 8)])],
    );
    check(
        "repetition_leaves_no_legal_move.arb",
        vec![(
            Some(("no-legal-move", "0-1", 8)),
            vec![(ThreefoldRepetition, 8)],
        )],
    );
    check(
        "threefold_claim.arb",
        vec![(None, vec![(ThreefoldRepetition, 10)])],
    );
    check(
        "repetition_forbidden_applied.arb",
        vec![(
            Some(("den-entered", "1-0", 15)),
            vec![
                (ThreefoldRepetition, 8),
                (JungleRepetition, 9),
                (ThreefoldRepetition, 9),
                (ThreefoldRepetition, 10),
            ],
        )],
    );
}

#[test]
fn movement_errors() {
    let mut v: Vec<Verdict> = (0..10).map(|_| stops(IllegalMove, 1)).collect();
    v.push(stops(ParseError, 1));
    check("movement_errors.arb", v);
}

#[test]
fn position_tags() {
    check(
        "position_tags_invalid.arb",
        vec![
            (None, vec![(SetupInvalid, 0); 6]),
            stops(ParseError, 0),
            stops(SetupInvalid, 0),
            stops(SetupInvalid, 0),
            NONE,
        ],
    );
}
