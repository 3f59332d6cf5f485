//! The hand-written Jungle fixtures (`fixtures/jungle/*.arb`): each file's top comment works out
//! the verdict from rulings §3; this test states it in the fixture grammar and holds arbiter to
//! it (codes, plies, endings), pins the rendered findings with insta (its claims:
//! `tests/games/claims.rs`).

use crate::fixtures::assert_verdicts;
use arbiter::pipeline::{self, GameReport, Options, Source};
use arbiter::report::human::{self, Style};
use std::path::PathBuf;

fn fixture(name: &str) -> Source {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures/jungle")
        .join(name);
    Source::read(&path)
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

/// Judges `fixtures/jungle/<name>`, holds its games to `expected` (`(findings, outcome)` a
/// game, as `tests/support/fixtures.rs` reads them) and pins the rendered findings.
fn check(name: &str, expected: &[(&str, &str)]) {
    let src = fixture(name);
    let reports = pipeline::check_source(&src, &Options::default());
    assert_verdicts(name, &reports, expected);
    let stem = name.trim_end_matches(".arb");
    insta::assert_snapshot!(format!("jungle_{stem}"), rendered(&src, &reports));
}

/// No finding, no end on the board.
const NONE: (&str, &str) = ("none", "none");
/// The first ply is illegal.
const ILLEGAL_1: (&str, &str) = ("illegal-move@1", "none");

#[test]
fn water() {
    check("rat_enters_water.arb", &[NONE]);
    check("only_rat_enters_water.arb", &[("illegal-move@3", "none")]);
}

#[test]
fn rat_and_elephant() {
    check("elephant_takes_rat.arb", &[NONE, ILLEGAL_1]);
    check("rat_in_water_cannot_take_elephant.arb", &[ILLEGAL_1, NONE]);
    check(
        "rat_takes_rat_at_the_water.arb",
        &[NONE, NONE, NONE, ILLEGAL_1],
    );
}

#[test]
fn river_jumps() {
    check("jump_blocked_by_own_rat.arb", &[ILLEGAL_1]);
    check("jump_blocked_by_enemy_rat.arb", &[ILLEGAL_1]);
    check("jump_captures.arb", &[NONE]);
}

#[test]
fn traps_and_strength() {
    check(
        "trap_weak_takes_strong.arb",
        &[
            NONE,
            ("illegal-move@2", "none"),
            ILLEGAL_1,
            ("none", "no-legal-move 0-1 1"),
        ],
    );
    check("strength.arb", &[NONE, ILLEGAL_1, NONE]);
}

#[test]
fn dens_and_endings() {
    check("own_den.arb", &[ILLEGAL_1]);
    check(
        "den_entered.arb",
        &[
            ("none", "den-entered 1-0 1"),
            ("moves-after-end@2", "den-entered 1-0 1"),
        ],
    );
    check(
        "no_legal_move.arb",
        &[
            ("none", "no-legal-move 1-0 1"),
            ("none", "no-legal-move 1-0 1"),
        ],
    );
}

#[test]
fn repetition() {
    let forbidden =
        "threefold-repetition@8 jungle-repetition@9 threefold-repetition@9 threefold-repetition@10";
    check("repetition_forbidden.arb", &[(forbidden, "none")]);
    check(
        "repetition_allowed.arb",
        &[("threefold-repetition@8", "none")],
    );
    check(
        "repetition_rat_threatens_elephant.arb",
        &[("jungle-repetition@8 threefold-repetition@8", "none")],
    );
    check(
        "repetition_leaves_no_legal_move.arb",
        &[("threefold-repetition@8", "no-legal-move 0-1 8")],
    );
    check(
        "threefold_claim.arb",
        &[("threefold-repetition@10", "none")],
    );
    check(
        "repetition_forbidden_applied.arb",
        &[(forbidden, "den-entered 1-0 15")],
    );
}

#[test]
fn movement_errors() {
    let mut v = vec![ILLEGAL_1; 10];
    v.push(("parse-error@1", "none"));
    check("movement_errors.arb", &v);
}

#[test]
fn position_tags() {
    let six = ["setup-invalid@-"; 6].join(" ");
    check(
        "position_tags_invalid.arb",
        &[
            (&six, "none"),
            ("parse-error@-", "none"),
            ("setup-invalid@-", "none"),
            ("setup-invalid@-", "none"),
            NONE,
        ],
    );
}
